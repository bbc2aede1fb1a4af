"""The web playtest server (``agricola serve``): Starlette routes (app.py), the games and their storage
(server.py, store.py), farmyards drawn as SVG (svg.py) and the page's static files (static/)."""
