#!/usr/bin/env python3
"""A stand-in for the APNs provider API for the push drill (Tools/faults): HTTP/2 over TLS on
127.0.0.1 with the tests' self-signed certificate (Tests/Fixtures/apns). Each push it gets is
appended to LOG as a JSON line (token, apns-collapse-id, apns-id, the time it arrived) before
it is answered; while the file HOLD exists, answers wait. Every push is answered 200. It does
not check the provider token: the Swift tests' fake does.

    Tools/drills/fake-apns.py PORT CERT KEY LOG HOLD
"""
import asyncio
import json
import os
import ssl
import sys
import time

import h2.config
import h2.connection
import h2.events

port, cert, key, log, hold = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]


class APNs(asyncio.Protocol):
    def connection_made(self, transport):
        self.transport = transport
        self.connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        self.connection.initiate_connection()
        self.heads = {}
        self.flush()

    def flush(self):
        data = self.connection.data_to_send()
        if data and not self.transport.is_closing():
            self.transport.write(data)

    def data_received(self, data):
        try:
            events = self.connection.receive_data(data)
        except Exception:
            self.transport.close()
            return
        for event in events:
            if isinstance(event, h2.events.RequestReceived):
                self.heads[event.stream_id] = dict(event.headers)
            elif isinstance(event, h2.events.DataReceived):
                self.connection.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                asyncio.get_event_loop().create_task(self.answer(event.stream_id, self.heads.pop(event.stream_id, {})))
            elif isinstance(event, h2.events.ConnectionTerminated):
                self.transport.close()
        self.flush()

    async def answer(self, stream, head):
        path = head.get(":path", "")
        with open(log, "a") as out:
            out.write(json.dumps({"token": path.rsplit("/", 1)[-1], "collapse_id": head.get("apns-collapse-id"),
                                  "apns_id": head.get("apns-id"), "at": time.time()}) + "\n")
        while os.path.exists(hold):
            await asyncio.sleep(0.05)
        if self.transport.is_closing():
            return
        try:
            self.connection.send_headers(stream, [(":status", "200"), ("apns-id", head.get("apns-id", ""))], end_stream=True)
        except Exception:  # the stream was reset, or the connection is gone
            return
        self.flush()


async def main():
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    context.set_alpn_protocols(["h2"])
    server = await asyncio.get_event_loop().create_server(APNs, "127.0.0.1", port, ssl=context)
    async with server:
        await server.serve_forever()


asyncio.run(main())
