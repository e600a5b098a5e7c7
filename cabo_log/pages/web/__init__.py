"""The web explorer of ``cabo-log serve`` (Starlette + Jinja2): ``create_app(db)``."""

from cabo_log.pages.web.app import Settings, create_app

__all__ = ["Settings", "create_app"]
