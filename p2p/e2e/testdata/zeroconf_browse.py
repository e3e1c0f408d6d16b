# Browses _hostfall._udp.local. with python-zeroconf (a DNS-SD reader that
# is not ours) for at most argv[1] seconds and prints each resolved service
# as one JSON object a line: name, addresses, port and TXT properties.
# p2p/e2e TestDNSSDZeroconf runs it with Debian's /usr/bin/python3.
import json
import sys
import time

from zeroconf import IPVersion, ServiceBrowser, Zeroconf

TYPE = "_hostfall._udp.local."


class Names:
    def __init__(self):
        self.names = []

    def add_service(self, zc, type_, name):
        if name not in self.names:
            self.names.append(name)

    def update_service(self, zc, type_, name):
        self.add_service(zc, type_, name)

    def remove_service(self, zc, type_, name):
        pass


def main():
    deadline = time.monotonic() + float(sys.argv[1])
    zc = Zeroconf(ip_version=IPVersion.V4Only)
    try:
        found = Names()
        ServiceBrowser(zc, TYPE, found)
        printed = set()
        while time.monotonic() < deadline and not printed:
            time.sleep(0.2)
            for name in list(found.names):
                info = zc.get_service_info(TYPE, name, timeout=3000)
                if info is None or name in printed:
                    continue
                printed.add(name)
                props = {k.decode(): (v.decode() if v is not None else None)
                         for k, v in info.properties.items()}
                print(json.dumps({"name": name, "addresses": info.parsed_addresses(),
                                  "port": info.port, "txt": props}), flush=True)
    finally:
        zc.close()


main()
