from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
def play_index(request: HttpRequest) -> HttpResponse:
    return render(request, "play/play_index.html")
