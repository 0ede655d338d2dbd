"""The tutor in a browser for a whole class: ``attn-tui serve`` (see ``server.py``).

server.py   the web server (textual-serve underneath): access token, one app process per tab
gate.py     every connection's door: a request within seconds, a bound per address and in all,
            503 when full, one log line per kind of trouble
hosts.py    the names the server answers to (Host, websocket Origin): no DNS rebinding
page.py     the page a tab loads, every asset from this server
session.py  what each tab runs: the tutor, asking first for the student's name (a name → its
            folder is attn_tui/core/students.py: the first screen uses it too)
pool.py     (Linux) one process that imports the tutor once and forks every session from it
launch.py   what textual-serve starts per tab then: hands the tab's stdin/stdout to the pool
parked.py   sessions the pool starts before their tab arrives, so a class arriving at once waits
            for nothing but their own keys
"""
