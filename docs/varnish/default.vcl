# Card Codex behind Varnish (Debian's varnish 7.x, no vmods needed): docs/deployment.md.
#
# Django decides what may be shared (core.http_cache): a page the same for every visitor
# comes with "Cache-Control: public, max-age=…, s-maxage=…", a validator and its cache tags
# in "xkey"; anything of a visitor's own (a CSRF token, the session's binder, a match, the
# admin) comes "private, no-store" or with Set-Cookie. This file keeps only the former, for
# s-maxage seconds, and drops them earlier when a write sends
#     BAN / with "xkey-purge: wiki" (tags separated by spaces)
# from an address of the "purgers" list (DJANGO_HTTP_CACHE_PURGE_URL=http://this-host:6081/).
vcl 4.1;

import std;

# The gunicorn hosts; with several, add a backend each and a director (vmod directors).
backend default {
    .host = "127.0.0.1";
    .port = "8000";
    .connect_timeout = 2s;
    .first_byte_timeout = 60s;
    .between_bytes_timeout = 10s;
}

# Who may purge: the application hosts (the site's writes) and this host.
acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    if (req.method == "BAN") {
        if (client.ip !~ purgers) {
            return (synth(405, "Not allowed"));
        }
        if (req.http.xkey-purge !~ "^[A-Za-z0-9_.:-]+( [A-Za-z0-9_.:-]+)*$") {
            return (synth(400, "Send the tags to purge in xkey-purge, separated by spaces"));
        }
        # A ban on obj.* only: the ban lurker removes the objects in the background too.
        # (No spaces in the expression's regular expression: it would end the argument.)
        if (!std.ban("obj.http.xkey ~ (^|\s)(" + regsuball(req.http.xkey-purge, " ", "|") + ")(\s|$)")) {
            return (synth(400, std.ban_error()));
        }
        return (synth(200, "Banned"));
    }
    if (req.method == "PURGE") {
        return (synth(405, "Use BAN with xkey-purge"));
    }
    # Tags are the backend's word to this cache, never a visitor's.
    unset req.http.xkey;
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    # The admin, and anything that sends credentials, is always the visitor's own.
    if (req.url ~ "^/([a-z]{2}(-[a-z]+)?/)?admin(/|$)" || req.http.Authorization) {
        return (pass);
    }
    # A message waiting for the visitor ("messages" cookie) shows on the next page they see.
    if (req.http.Cookie ~ "(^|;\s*)messages=") {
        return (pass);
    }
    # Everything else is looked up even when it carries cookies (the session, CSRF): Django
    # marks "public" only what holds nothing of any visitor, and what it answers "private"
    # or with Set-Cookie is never stored (vcl_backend_response). On a miss the cookies go
    # to the backend, which needs them for the pages that are the visitor's own.
    return (hash);
}

sub vcl_hash {
    # The default (address and Host); the language is in the path (/en/, /ru/), and htmx
    # fragments are told apart by the backend's Vary: HX-Request.
    hash_data(req.url);
    if (req.http.host) {
        hash_data(req.http.host);
    } else {
        hash_data(server.ip);
    }
    return (lookup);
}

sub vcl_backend_response {
    # Never keep what a visitor made their own, nor what the backend did not call public.
    if (beresp.http.Set-Cookie
        || beresp.http.Cache-Control !~ "(^|,)\s*public(\s*,|\s*$)"
        || beresp.http.Cache-Control ~ "private|no-store|no-cache"
        || beresp.http.Vary ~ "(?i)(^|,)\s*(cookie|\*)\s*(,|$)"
        || beresp.ttl <= 0s) {
        # Remember for a while that this address is not cacheable (hit-for-miss), so
        # requests for it are not queued behind each other.
        set beresp.uncacheable = true;
        set beresp.ttl = 120s;
        return (deliver);
    }
    # beresp.ttl comes from s-maxage (before max-age): the backend's word. Keep the object
    # an hour past it to revalidate with its ETag / Last-Modified (a 304 is cheap).
    set beresp.grace = 10s;
    set beresp.keep = 1h;
    return (deliver);
}

sub vcl_deliver {
    if (obj.uncacheable) {
        set resp.http.X-Cache = "PASS";
    } elsif (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
    # The tags are for this cache; a CDN in front would want its own header.
    unset resp.http.xkey;
    return (deliver);
}
