import os

from django.core.wsgi import get_wsgi_application

from core.memo import keep_out_of_gc

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
application = get_wsgi_application()
# The code and settings just loaded live as long as the process: out of the garbage
# collector's passes (and shared, copy-on-write, by the workers of a server that
# preloads the application).
keep_out_of_gc()
