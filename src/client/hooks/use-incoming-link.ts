// A TikTok link that arrives with the page: the share target (`/?title=&text=&url=`, as the TikTok
// app's share sheet sends it), a bookmarklet or shortcut (`/?url=<link>`), or a link kept across an
// in-place sign-in. Taken once, then the query string is cleaned so a reload does not refetch.
import { useEffect, useRef } from 'react';
import { extractTikTokLink } from '@shared/tiktok-url';

const PENDING_KEY = 'smt.pendingLink';

/** Keeps a link for the next page (the signed-in downloader after an in-place sign-in). */
export function keepLinkForNextPage(link: string): void {
  try {
    sessionStorage.setItem(PENDING_KEY, link);
  } catch {
    /* storage disabled: the person pastes again */
  }
}

export function takeIncomingLink(): string | null {
  const params = new URLSearchParams(window.location.search);
  const shared = ['url', 'text', 'title'].map((k) => params.get(k) ?? '').join(' ');
  let link = extractTikTokLink(shared);
  if (params.has('url') || params.has('text') || params.has('title')) {
    window.history.replaceState(null, '', window.location.pathname);
  }
  try {
    link ??= sessionStorage.getItem(PENDING_KEY);
    sessionStorage.removeItem(PENDING_KEY);
  } catch {
    /* storage disabled */
  }
  return link && extractTikTokLink(link);
}

/** Calls onLink once after mount when the page arrived with a link. */
export function useIncomingLink(onLink: (link: string) => void): void {
  const done = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once after mount, with the handler of the first render
  useEffect(() => {
    if (done.current) return; // StrictMode runs effects twice in development
    done.current = true;
    const link = takeIncomingLink();
    if (link) onLink(link);
  }, []);
}
