#!/usr/bin/python3
"""A real SMTP server for the notification tests (aiosmtpd, Debian's python3-aiosmtpd).

Listens on 127.0.0.1 (port 0 = any free port) and saves every message it
accepts into OUT as NNN.json: envelope sender and recipients, the login that
authenticated (if any), whether the session was TLS, the raw message, and the
message parsed with Python's email package (subject, and the decoded
text/plain and text/html parts), so a test checks what a mail reader sees.

Once listening it writes the port into OUT/port (atomically), which the test
waits for. SIGTERM stops it.

Options:
  --starttls         offer STARTTLS with a self-signed certificate made now with openssl, and require it
  --auth USER:PASS   require AUTH (LOGIN or PLAIN) with these credentials
  --refuse-first N   answer 421 to the first N MAIL commands (to test retries)
"""

import argparse
import asyncio
import email
import email.policy
import json
import logging
import os
import signal
import ssl
import subprocess
import sys
import warnings

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


def make_certificate(folder):
    cert = os.path.join(folder, "cert.pem")
    key = os.path.join(folder, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
         "-days", "1", "-subj", "/CN=localhost"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


class Sink:
    def __init__(self, out, refuse_first):
        self.out = out
        self.refuse_left = refuse_first
        self.count = 0
        self.mail_commands = 0

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        self.mail_commands += 1
        self.write_stats()
        if self.refuse_left > 0:
            self.refuse_left -= 1
            return "421 4.3.2 Service not available, try again later"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        raw = envelope.original_content
        message = email.message_from_bytes(raw, policy=email.policy.default)
        parts = {}
        for part in message.walk():
            if part.get_content_maintype() == "text":
                parts[part.get_content_type()] = part.get_content()
        login = None
        if isinstance(session.auth_data, LoginPassword):
            login = session.auth_data.login.decode("utf-8", "replace")
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "login": login,
            "tls": session.ssl is not None,
            "subject": str(message["subject"]),
            "from": str(message["from"]),
            "to": str(message["to"]),
            "date": str(message["date"]),
            "message_id": str(message["message-id"]),
            "content_type": message.get_content_type(),
            "text": parts.get("text/plain"),
            "html": parts.get("text/html"),
            "raw": raw.decode("utf-8", "replace"),
        }
        path = os.path.join(self.out, "%03d.json" % self.count)
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            json.dump(record, f, indent=1)
        os.replace(path + ".tmp", path)
        return "250 Message accepted"

    def write_stats(self):
        path = os.path.join(self.out, "mail_commands")
        with open(path + ".tmp", "w") as f:
            f.write(str(self.mail_commands))
        os.replace(path + ".tmp", path)


def main():
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    # aiosmtpd logs refused TLS handshakes and deprecations; the tests check outcomes instead.
    logging.getLogger("mail.log").disabled = True
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--starttls", action="store_true")
    parser.add_argument("--auth")
    parser.add_argument("--refuse-first", type=int, default=0)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    handler = Sink(args.out, args.refuse_first)
    options = {"hostname": "localhost"}
    if args.starttls:
        options["tls_context"] = make_certificate(args.out)
        options["require_starttls"] = True
    if args.auth:
        user, password = args.auth.split(":", 1)

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = (isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user
                  and auth_data.password.decode() == password)
            return AuthResult(success=ok, auth_data=auth_data if ok else None)

        options["authenticator"] = authenticator
        options["auth_required"] = True
        options["auth_require_tls"] = args.starttls

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    server = loop.run_until_complete(
        loop.create_server(lambda: SMTP(handler, loop=loop, **options), "127.0.0.1", args.port))
    port = server.sockets[0].getsockname()[1]
    port_file = os.path.join(args.out, "port")
    with open(port_file + ".tmp", "w") as f:
        f.write(str(port))
    os.replace(port_file + ".tmp", port_file)

    loop.add_signal_handler(signal.SIGTERM, loop.stop)
    loop.add_signal_handler(signal.SIGINT, loop.stop)
    try:
        loop.run_forever()
    finally:
        server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
