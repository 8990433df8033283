from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ExplorerConfig(AppConfig):
    name = "explorer"
    verbose_name = _("Explorer")

    def ready(self) -> None:
        from django_tasks.signals import task_finished

        from .tasks import after_recompute

        task_finished.connect(after_recompute, dispatch_uid="explorer.after_recompute")
