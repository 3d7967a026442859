// A video link that arrives with the page: the share target (`/?title=&text=&url=`, as a platform
// app's share sheet sends it), a bookmarklet or shortcut (`/?url=<link>`), or a link kept across an
// in-place sign-in. Taken once the server's platforms are known, then the query string is cleaned so
// a reload does not refetch.
import { useEffect, useRef } from 'react';
import type { PlatformInfo } from '@shared/contracts/platforms';
import { extractLink } from '@shared/platform-links';
import { usePlatforms } from './use-platforms';

const PENDING_KEY = 'smt.pendingLink';

/** Keeps a link for the next page (the signed-in downloader after an in-place sign-in). */
export function keepLinkForNextPage(link: string): void {
  try {
    sessionStorage.setItem(PENDING_KEY, link);
  } catch {
    /* storage disabled: the person pastes again */
  }
}

export function takeIncomingLink(platforms: readonly PlatformInfo[]): string | null {
  const params = new URLSearchParams(window.location.search);
  const shared = ['url', 'text', 'title'].map((k) => params.get(k) ?? '').join(' ');
  let link = extractLink(shared, platforms);
  if (params.has('url') || params.has('text') || params.has('title')) {
    window.history.replaceState(null, '', window.location.pathname);
  }
  try {
    link ??= sessionStorage.getItem(PENDING_KEY);
    sessionStorage.removeItem(PENDING_KEY);
  } catch {
    /* storage disabled */
  }
  return link && extractLink(link, platforms);
}

/** Calls onLink once after mount when the page arrived with a link. */
export function useIncomingLink(onLink: (link: string) => void): void {
  const done = useRef(false);
  const { platforms, ready } = usePlatforms();
  useEffect(() => {
    if (done.current || !ready) return; // StrictMode runs effects twice in development
    done.current = true;
    const link = takeIncomingLink(platforms);
    if (link) onLink(link);
  }, [ready, platforms, onLink]); // runs its body once: `done` guards it
}
