"""A staff member in the Russian admin: log in, open a wiki page, read every label in
Russian, switch the language tabs, preview, save; and the Russian wiki search."""

import re

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

# English words the Russian admin may still show: names (Card Codex, Markdown), the
# language tabs' codes and native names, and the keys Django's help text names.
ALLOWED_LATIN = {
    "Card Codex",
    "Markdown",
    "English",
    "Energy",
    "Command",
    "Control",
    "Mac",
    "EN",
    "RU",
    "en",
    "ru",
    "staff",
    "NRG",
    "Deploy",
}


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser("ольга", "olga@example.org", "pass-1234")


@pytest.fixture
def wiki_page(db):
    from tests.wiki.conftest import make_page

    return make_page(
        "energy",
        title_en="Energy",
        title_ru="Энергия",
        body_en="## Costs\n\nDeploying costs NRG.",
        body_ru="## Стоимость\n\nВыставление стоит NRG.",
        section="match",
    )


def _log_in(page, lang="ru"):
    page.goto(f"{page.base_url}/{lang}/admin/login/")
    assert page.locator("h1").count() == 1
    assert page.locator("h1").inner_text().strip() == "Администрирование Card Codex"
    page.get_by_label("Имя пользователя").fill("ольга")
    page.get_by_label("Пароль").fill("pass-1234")
    page.get_by_role("button", name="Войти").click()
    page.wait_for_url(f"**/{lang}/admin/")


def _h1(page) -> str:
    """The title: modeltranslation adds its language switch (en / ru) into the <h1>."""
    return page.locator("h1").inner_text().splitlines()[0].strip()


def _latin_words(text: str) -> set[str]:
    words = {m.group() for m in re.finditer(r"[A-Za-z][A-Za-z-]+(?: [A-Z][a-z]+)?", text)}
    return {w for w in words if w not in ALLOWED_LATIN and not w.startswith("Card Codex")}


def test_the_russian_admin_wiki_change_page(page, staff, wiki_page):
    _log_in(page)
    page.get_by_role("link", name="Страницы вики").first.click()
    page.wait_for_url("**/ru/admin/wiki/page/")
    assert page.locator("h1").inner_text() == "Выберите для изменения: страница вики"
    page.get_by_role("link", name="Энергия").click()
    page.wait_for_url(f"**/ru/admin/wiki/page/{wiki_page.pk}/change/")
    assert _h1(page) == "Изменение: страница вики"
    for heading in ("Размещение", "Эта правка"):
        assert page.get_by_role("heading", name=heading).is_visible()
    # Everything a person reads on the page is Russian, bar names and the texts themselves.
    visible = page.locator("#content").inner_text()
    for text in (wiki_page.body_en, "Costs", "Deploying costs"):
        visible = visible.replace(text, "")
    assert _latin_words(visible) == set(), _latin_words(visible)
    # The language tabs work under the CSP (no CDN script), and the Russian text is there.
    page.get_by_role("tab", name=re.compile("Русский|ru", re.I)).first.click()
    assert page.locator("#id_body_ru").is_visible()
    assert "Выставление стоит NRG." in page.locator("#id_body_ru").input_value()
    # Preview in Russian: a new tab, the page in Russian, the notice in Russian.
    with page.context.expect_page() as new_tab:
        page.get_by_role("button", name="Предпросмотр: Русский").click()
    preview = new_tab.value
    preview.wait_for_load_state()
    assert preview.locator("html").get_attribute("lang") == "ru"
    assert "Предпросмотр — этот текст не сохранён" in preview.locator("body").inner_text()
    assert preview.get_by_role("heading", name="Стоимость").is_visible()
    preview.close()
    # Save: the message says what happened, in Russian.
    page.get_by_label("Описание правки").fill("проверка")
    page.get_by_role("button", name="Сохранить", exact=True).click()
    page.wait_for_url("**/ru/admin/wiki/page/")
    assert "Изменено: страница вики «Энергия»." in page.locator(".messagelist").inner_text()


def test_the_russian_admin_on_a_phone(page, staff, wiki_page):
    page.set_viewport_size({"width": 390, "height": 844})
    _log_in(page)
    page.goto(f"{page.base_url}/ru/admin/wiki/page/{wiki_page.pk}/change/")
    assert _h1(page) == "Изменение: страница вики"
    assert page.get_by_role("heading", name="Размещение").is_visible()


def test_the_russian_search_finds_everyday_words_and_says_what_it_left_out(page):
    from django.core.management import call_command

    call_command("load_wiki", verbosity=0)
    page.goto(f"{page.base_url}/ru/wiki/search/")
    box = page.get_by_label("Поиск по вики (на русском и английском)")
    box.fill("навыки")
    page.locator(".result-title").first.wait_for()
    assert page.locator(".result-title").first.inner_text() == "Скиллы"
    box.fill("навыки xyzzy")
    page.get_by_text("Ни на одной странице нет слова «xyzzy»").wait_for()
    assert page.locator(".result-title").first.inner_text() == "Скиллы"
    box.fill("андерчардш")
    page.get_by_text("Может быть, вы имели в виду").wait_for()
    page.locator(".search-suggestion a").click()
    page.wait_for_url(re.compile(r".*q=%D0%B0%D0%BD%D0%B4%D0%B5%D1%80.*"))
    assert "energy" in page.locator(".result-title a").first.get_attribute("href")
