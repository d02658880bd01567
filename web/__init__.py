"""The board's web face: a live page and a small JSON API served from the controller's process.

``view`` builds the state a page shows (pure), ``actions`` reads what a browser asks (pure),
``hub`` carries both between the controller's thread and the server's event loop, and
``server`` is the Starlette application (served by uvicorn).
"""
