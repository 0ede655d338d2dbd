"""The tutor in a browser for a whole class: ``attn-tui serve`` (see ``server.py``).

server.py   the web server (textual-serve underneath): access token, one app process per tab
session.py  what each tab runs: the tutor, asking first for the student's name
students.py a name → that student's own folder under the data directory (standard library only)
"""
