#!/usr/bin/env python3
"""A fault-injecting HTTP proxy for drills: forwards to UPSTREAM, or misbehaves as told.

    Tools/drills/fault-proxy.py PORT UPSTREAM

`PUT /__fault/<mode>` switches the mode for every later request: `ok` (forward), `500` (answer 500
with a Stripe-like error body), `401` (answer 401 as Stripe does to a revoked key), `hang` (read
the request, then say nothing until the client gives up), `close` (read the request, then close
the connection without answering), `lose` (forward the request, then close the connection: the
provider acted, the answer is lost). `<mode>:<text>` misbehaves only on paths containing text
(`hang:/confirm`) and forwards the rest.
"""
import http.client
import sys
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, upstream = int(sys.argv[1]), urllib.parse.urlparse(sys.argv[2])
mode = ["ok"]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def handle_any(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path.startswith("/__fault/"):
            mode[0] = self.path.removeprefix("/__fault/")
            return self.reply(200, b"{}")
        fault, _, only = mode[0].partition(":")
        if only and only not in self.path:
            fault = "ok"
        if fault == "500":
            return self.reply(500, b'{"error": {"type": "api_error", "message": "injected failure"}}')
        if fault == "401":
            return self.reply(401, b'{"error": {"type": "invalid_request_error", "message": "Invalid API Key provided"}}')
        if fault == "hang":
            time.sleep(120)
            return
        if fault == "close":
            self.close_connection = True
            self.connection.close()
            return
        connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=60)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
        connection.request(self.command, self.path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        if fault == "lose":
            self.close_connection = True
            self.connection.close()
            return
        self.reply(response.status, data, response.getheader("Content-Type", "application/json"))

    def reply(self, status, data, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_DELETE = handle_any

    def log_message(self, format, *args):
        pass


ThreadingHTTPServer.request_queue_size = 128
ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
