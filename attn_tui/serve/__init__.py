"""The tutor in a browser for a whole class: ``attn-tui serve`` (see ``server.py``).

server.py   the web server (textual-serve underneath): access token, one app process per tab
session.py  what each tab runs: the tutor, asking first for the student's name
students.py a name → that student's own folder under the data directory (standard library only)
pool.py     (Linux) one process that imports the tutor once and forks every session from it
launch.py   what textual-serve starts per tab then: hands the tab's stdin/stdout to the pool
parked.py   sessions the pool starts before their tab arrives, so a class arriving at once waits
            for nothing but their own keys
"""
