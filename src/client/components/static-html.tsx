// Sections with nothing to run (hero text, feature lists, the footer): on a first screen sent ready
// (decision 0074) React keeps the server's HTML of such a section as it is and does no work inside
// it, neither rendering nor hydrating (decision 0078). Whenever there is no server HTML to keep (a
// screen reached client-side, or one React renders again after a mismatch) it renders the children.
import {
  createElement,
  type HTMLAttributes,
  type MouseEvent,
  type ReactNode,
  useState,
  useSyncExternalStore,
} from 'react';
import { useLocation } from 'wouter';

type Tag = 'div' | 'section' | 'header' | 'footer' | 'ul' | 'p';

const noSubscription = () => () => {};

/**
 * True when this element was hydrated from the server's HTML, for as long as it stays mounted.
 * React reads a store's server snapshot on the server and while hydrating, nowhere else, so the
 * server snapshot says which; the client snapshot then answers the same, so no second render.
 */
export function useKeepsServerHtml(): boolean {
  const [latch] = useState(() => {
    const l = {
      kept: false,
      client: () => l.kept,
      server: () => {
        l.kept = typeof document !== 'undefined';
        return l.kept;
      },
    };
    return l;
  });
  return useSyncExternalStore(noSubscription, latch.client, latch.server);
}

/** An in-app link's path, for a click React should route (kept HTML has no `Link` to do it). */
function inAppHref(e: MouseEvent<HTMLElement>): string | null {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return null;
  const a = (e.target as Element).closest('a');
  const href = a?.getAttribute('href');
  if (!a || !href || a.target || a.hasAttribute('download')) return null;
  // `/api/…` are the server's own addresses (sign-in): a full page load, as in the children.
  return href.startsWith('/') && !href.startsWith('//') && !href.startsWith('/api/') ? href : null;
}

interface StaticProps extends HTMLAttributes<HTMLElement> {
  /** The element the section is; the server's HTML has it, so hydration finds the same. */
  as?: Tag;
  /** Must render the same on every render: it is not updated while the server's HTML is kept. */
  children: ReactNode;
}

export function Static({ as = 'div', children, ...rest }: StaticProps) {
  const kept = useKeepsServerHtml();
  const [, navigate] = useLocation();
  if (!kept) return createElement(as, rest, children);
  return createElement(as, {
    ...rest,
    // The kept links are plain anchors: in-app ones still change screens without a page load.
    onClick: (e: MouseEvent<HTMLElement>) => {
      const href = inAppHref(e);
      if (!href) return;
      e.preventDefault();
      navigate(href);
    },
    // An empty `__html` leaves the children React finds in place (no diff, no write: decision 0078).
    dangerouslySetInnerHTML: { __html: '' },
    suppressHydrationWarning: true,
  });
}
