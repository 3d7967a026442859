// UPSTREAM_HOST_MAP (tests only; refused in production): which origin stands in for an upstream
// host. One matcher for every outbound client: an exact host (with port, then without), else the
// longest matching `*.domain` wildcard (which also matches the bare domain).
export type HostMap = Readonly<Record<string, string>>;

export function mapUpstream(url: URL, hostMap: HostMap): URL | null {
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  let origin = hostMap[url.host.toLowerCase()] ?? hostMap[host];
  if (!origin) {
    const wildcard = Object.keys(hostMap)
      .filter((k) => k.startsWith('*.') && (host === k.slice(2) || host.endsWith(k.slice(1))))
      .sort((a, b) => b.length - a.length)[0];
    origin = wildcard ? hostMap[wildcard] : '';
  }
  return origin ? new URL(url.pathname + url.search, origin) : null;
}
