"""The "Editors" group: may add, change and view wiki pages and view their history.

Nothing outside the wiki (card data stays with the card maintainers). Revisions are a
read-only record written by the wiki's services, so editors only view them; deleting
pages is left to superusers.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Editors"
PERMISSIONS = {
    "page": ("add", "change", "view"),
    "pagerevision": ("view",),
}


def create_group(apps, schema_editor):
    # Permissions are normally created after all migrations (post_migrate); make sure the
    # wiki's exist now, on a fresh database too.
    app_config = apps.get_app_config("wiki")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    codenames = [
        f"{action}_{model}" for model, actions in PERMISSIONS.items() for action in actions
    ]
    perms = Permission.objects.filter(content_type__app_label="wiki", codename__in=codenames)
    group.permissions.add(*perms)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("wiki", "0002_search_index"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
