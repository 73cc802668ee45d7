#!/usr/bin/env python3
"""A Stripe-compatible payment provider for benchmarks only: PaymentIntents that a confirm pays at
once (every card succeeds), refunds that succeed, each answer after LATENCY_MS. It answers what
the service asks of a provider, fast and in parallel (a thread per connection), so a checkout
figure measures the service rather than localstripe, which is single-threaded Python and caps
every checkout at some 30 orders/s. Tests keep using localstripe: this stub checks nothing.

    payment-stub.py PORT LATENCY_MS
"""
import json
import sys
import threading
import time
import urllib.parse
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, latency = int(sys.argv[1]), float(sys.argv[2]) / 1000
intents, replies, lock = {}, {}, threading.Lock()


class Provider(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # The head and the body go out in two writes; with Nagle's algorithm the body waited for the
    # client's delayed ACK of the head, 40 ms per call, which bounded a checkout at 32 customers.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        return status, body

    def do_GET(self):
        time.sleep(latency)
        path = urllib.parse.urlsplit(self.path).path
        if path.startswith("/v1/payment_intents/"):
            with lock:
                intent = intents.get(path.rsplit("/", 1)[1])
            return self.answer(200, intent) if intent else self.answer(404, {"error": {"message": "no such intent"}})
        if path == "/v1/refunds":
            return self.answer(200, {"object": "list", "data": [], "has_more": False})
        return self.answer(404, {"error": {"message": "not here"}})

    def do_POST(self):
        form = dict(urllib.parse.parse_qsl(self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()))
        key = self.headers.get("Idempotency-Key")
        with lock:
            if key and key in replies:
                return self.answer(*replies[key])
        time.sleep(latency)
        parts = urllib.parse.urlsplit(self.path).path.strip("/").split("/")
        if parts == ["v1", "payment_intents"]:
            intent = {"id": "pi_" + uuid.uuid4().hex, "object": "payment_intent", "amount": int(form.get("amount", 0)),
                      "currency": form.get("currency", "jpy"), "status": "requires_confirmation",
                      "client_secret": "pi_secret_" + uuid.uuid4().hex, "next_action": None}
            reply = (200, intent)
        elif len(parts) == 4 and parts[:2] == ["v1", "payment_intents"] and parts[3] in ("confirm", "cancel"):
            with lock:
                intent = intents.get(parts[2])
            if not intent:
                return self.answer(404, {"error": {"message": "no such intent"}})
            intent = dict(intent, status="succeeded" if parts[3] == "confirm" else "canceled")
            reply = (200, intent)
        elif parts == ["v1", "refunds"]:
            reply = (200, {"id": "re_" + uuid.uuid4().hex, "object": "refund", "amount": int(form.get("amount", 0)),
                           "currency": form.get("currency", "jpy"), "status": "succeeded"})
        else:
            return self.answer(404, {"error": {"message": "not here"}})
        with lock:
            if reply[1].get("object") == "payment_intent":
                intents[reply[1]["id"]] = reply[1]
            if key:
                replies[key] = reply
        return self.answer(*reply)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024  # the listen backlog: 512 customers connect at once


Server(("127.0.0.1", port), Provider).serve_forever()
