"""Store each candidate list once (``CandidateList``) instead of in every opening: the
existing openings' lists move into shared rows, one per distinct list (issue 26, M2)."""

import hashlib
import json

import django.db.models.deletion
from django.db import migrations, models


def digest(candidates):
    text = json.dumps(candidates, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def share_lists(apps, schema_editor):
    Opening = apps.get_model("packs", "Opening")
    CandidateList = apps.get_model("packs", "CandidateList")
    ids = {}
    for opening in Opening.objects.only("id", "candidates").iterator(chunk_size=500):
        key = digest(opening.candidates)
        if key not in ids:
            ids[key] = CandidateList.objects.get_or_create(
                digest=key, defaults={"candidates": opening.candidates}
            )[0].pk
        Opening.objects.filter(pk=opening.pk).update(candidate_list_id=ids[key])


def copy_lists_back(apps, schema_editor):
    Opening = apps.get_model("packs", "Opening")
    for opening in Opening.objects.select_related("candidate_list").iterator(chunk_size=500):
        Opening.objects.filter(pk=opening.pk).update(candidates=opening.candidate_list.candidates)


class Migration(migrations.Migration):
    dependencies = [
        ("packs", "0002_request_key_per_session"),
    ]

    operations = [
        migrations.CreateModel(
            name="CandidateList",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("digest", models.CharField(max_length=64, unique=True, verbose_name="digest")),
                (
                    "candidates",
                    models.JSONField(
                        help_text="The pool as it was: [token, tier] of each card, in order.",
                        verbose_name="candidates",
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created")),
            ],
            options={
                "verbose_name": "candidate list",
                "verbose_name_plural": "candidate lists",
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.AddField(
            model_name="opening",
            name="candidate_list",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="openings",
                to="packs.candidatelist",
            ),
        ),
        migrations.AlterField(
            model_name="opening",
            name="candidates",
            field=models.JSONField(null=True),
        ),
        migrations.RunPython(share_lists, copy_lists_back),
        migrations.RemoveField(model_name="opening", name="candidates"),
        migrations.AlterField(
            model_name="opening",
            name="candidate_list",
            field=models.ForeignKey(
                help_text="The pool as it was: [token, tier] of each card, in order.",
                on_delete=django.db.models.deletion.PROTECT,
                related_name="openings",
                to="packs.candidatelist",
                verbose_name="candidates",
            ),
        ),
    ]
