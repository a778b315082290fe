#!/usr/bin/env python3
"""Checks every internal link of the static documentation site that scripts/docs-site.sh builds.

The site holds one DocC archive per module (SITE/<Module>/), transformed for static hosting under
BASE/<Module>/, and SITE/index.html. A DocC page is SITE/<Module>/documentation/<path>/index.html (the viewer) plus
its content, SITE/<Module>/data/documentation/<path>.json. Checked:

* every page's JSON: each reference of kind "topic" (the links of articles, symbols and topic groups) has a page,
  and so has every `doc:` identifier it uses;
* every HTML page: each `href`/`src` that stays on the site (relative, or under BASE) names a file or page that
  exists;
* with --readme FILE: each link of FILE into the published site (https://HOST/BASE/...) names a page of the site.

Prints the number of pages and of links checked, each broken link with the page it is on, and exits 1 when any is
broken. Usage: check-site-links.py SITE --base /ConnectSDK-Swift [--readme README.md --site-url URL]
"""
import argparse
import json
import os
import re
import sys
from urllib.parse import urlparse, unquote


def page_exists(site, module_dir, path):
    """Whether the site has the page at `path` (like /documentation/iftttconnectcore/gettingstarted) in module_dir."""
    path = unquote(path.split("#")[0].split("?")[0]).rstrip("/")
    if not path:
        return os.path.isfile(os.path.join(site, module_dir, "index.html"))
    target = os.path.join(site, module_dir, path.lstrip("/"))
    if os.path.isfile(target):
        return True
    if os.path.isfile(os.path.join(target, "index.html")):
        # A viewer page without content would render "page not found": its JSON must exist too.
        if "/documentation/" in "/" + path.lstrip("/") or "/tutorials/" in "/" + path.lstrip("/"):
            return os.path.isfile(os.path.join(site, module_dir, "data", path.lstrip("/").lower() + ".json"))
        return True
    return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("site")
    parser.add_argument("--base", default="")
    parser.add_argument("--readme", action="append", default=[])
    parser.add_argument("--site-url", default="")
    parser.add_argument("--no-index", action="store_true", help="the site has no front page (archives only)")
    args = parser.parse_args()
    site = os.path.abspath(args.site)
    base = "/" + args.base.strip("/") if args.base.strip("/") else ""
    modules = sorted(d for d in os.listdir(site) if os.path.isdir(os.path.join(site, d, "documentation")))
    if not modules:
        print(f"site links: no module archive in {site}")
        return 1
    broken = []
    pages = 0
    links = 0

    def on_site(module, url):
        """(module_dir, path) for a site-internal URL, or None when the URL leaves the site."""
        parsed = urlparse(url)
        if parsed.scheme or parsed.netloc:
            return None
        path = parsed.path
        if base and path.startswith(base + "/"):
            path = path[len(base) :]
        elif base and path == base:
            path = "/"
        if path.startswith("/"):
            head, _, tail = path[1:].partition("/")
            if head in modules:
                return head, "/" + tail
            return module, path
        return None  # relative: resolved by the caller

    for module in modules:
        data = os.path.join(site, module, "data")
        for directory, _, files in os.walk(data):
            for name in files:
                if not name.endswith(".json"):
                    continue
                source = os.path.relpath(os.path.join(directory, name), site)
                with open(os.path.join(directory, name), encoding="utf-8") as handle:
                    document = json.load(handle)
                references = document.get("references", {})
                for identifier, reference in references.items():
                    if reference.get("type") != "topic":
                        continue
                    url = reference.get("url")
                    links += 1
                    if not url:
                        broken.append((source, identifier, "a topic reference without a page"))
                        continue
                    place = on_site(module, url)
                    if place and not page_exists(site, place[0], place[1]):
                        broken.append((source, url, "no such page"))
        for directory, _, files in os.walk(os.path.join(site, module, "documentation")):
            if "index.html" in files:
                pages += 1
        for directory, _, files in os.walk(os.path.join(site, module)):
            for name in files:
                if not name.endswith(".html"):
                    continue
                page = os.path.join(directory, name)
                with open(page, encoding="utf-8", errors="replace") as handle:
                    html = handle.read()
                for url in re.findall(r'(?:href|src)="([^"]+)"', html):
                    if url.startswith(("http:", "https:", "mailto:", "data:", "#", "javascript:")):
                        continue
                    links += 1
                    place = on_site(module, url)
                    if place is None:
                        target = os.path.normpath(os.path.join(directory, unquote(url.split("#")[0].split("?")[0])))
                        ok = os.path.exists(target)
                    else:
                        ok = page_exists(site, place[0], place[1])
                    if not ok:
                        broken.append((os.path.relpath(page, site), url, "no such file"))
    index = os.path.join(site, "index.html")
    if os.path.isfile(index):
        pages += 1
        with open(index, encoding="utf-8") as handle:
            for url in re.findall(r'href="([^"]+)"', handle.read()):
                if url.startswith(("http:", "https:", "#")):
                    continue
                links += 1
                target = os.path.normpath(os.path.join(site, unquote(url)))
                if not (os.path.isfile(target) or os.path.isfile(os.path.join(target, "index.html"))):
                    broken.append(("index.html", url, "no such file"))
    elif not args.no_index:
        broken.append(("index.html", "", "the site has no front page"))
    if args.site_url:
        prefix = args.site_url.rstrip("/") + "/"
        for readme in args.readme:
            with open(readme, encoding="utf-8") as handle:
                text = handle.read()
            for url in sorted(set(re.findall(re.escape(prefix) + r"[^)\s>\"']*", text))):
                links += 1
                rest = url[len(prefix) :]
                head, _, tail = rest.partition("/")
                if not rest:
                    ok = os.path.isfile(index)
                elif head in modules:
                    ok = page_exists(site, head, "/" + tail)
                else:
                    ok = False
                if not ok:
                    broken.append((readme, url, "no such page on the site"))
    for source, url, why in broken:
        print(f"  BROKEN {source}: {url} ({why})")
    print(f"site links: {pages} pages in {len(modules)} modules, {links} links checked, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
