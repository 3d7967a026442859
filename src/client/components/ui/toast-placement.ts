// Toasts never cover the next thing to press: elements marked `data-next-action` (a video card's
// download buttons). The toasts keep their usual edge (top on phones, bottom right from 640 px)
// unless they would cover such an element there; then they move to the other edge, or to
// whichever edge covers less.
import { useLayoutEffect, useRef, useState, type CSSProperties } from 'react';

type Edge = 'top' | 'bottom';
const SM_MIN_WIDTH = 640; // Tailwind's `sm`, where the viewport's classes move it to the bottom

interface Band {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

function covered(band: Band, targets: DOMRect[]): number {
  let area = 0;
  for (const t of targets) {
    const w = Math.min(band.right, t.right) - Math.max(band.left, t.left);
    const h = Math.min(band.bottom, t.bottom) - Math.max(band.top, t.top);
    if (w > 0 && h > 0) area += w * h;
  }
  return area;
}

/** The edge whose band of `height` px covers the least of the targets, preferring the usual one. */
export function clearEdge(
  usual: Edge,
  height: number,
  horizontal: { left: number; right: number },
  viewportHeight: number,
  targets: DOMRect[],
): Edge {
  const band = (edge: Edge): Band =>
    edge === 'top'
      ? { top: 0, bottom: height, ...horizontal }
      : { top: viewportHeight - height, bottom: viewportHeight, ...horizontal };
  const other: Edge = usual === 'top' ? 'bottom' : 'top';
  const here = covered(band(usual), targets);
  return here > 0 && covered(band(other), targets) < here ? other : usual;
}

export function useClearEdge(toasts: readonly unknown[]) {
  const viewportRef = useRef<HTMLOListElement>(null);
  const [edge, setEdge] = useState<Edge | null>(null);
  // Placed again whenever the toasts change (a new one may be taller).
  useLayoutEffect(() => {
    if (toasts.length === 0) return;
    let frame = 0;
    const place = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const vp = viewportRef.current;
        if (!vp || vp.children.length === 0) return;
        const rect = vp.getBoundingClientRect();
        const targets = [...document.querySelectorAll('[data-next-action]')].map((e) => e.getBoundingClientRect());
        const usual: Edge = window.innerWidth >= SM_MIN_WIDTH ? 'bottom' : 'top';
        // A DOMRect's sides are getters: copy them (spreading one gives nothing).
        const sides = { left: rect.left, right: rect.right };
        setEdge(clearEdge(usual, rect.height, sides, window.innerHeight, targets));
      });
    };
    place();
    // The page may still be laying out what the toast is about (a card appears with its toast).
    const resized = new ResizeObserver(place);
    resized.observe(document.body);
    if (viewportRef.current) resized.observe(viewportRef.current);
    window.addEventListener('scroll', place, { passive: true });
    window.addEventListener('resize', place);
    return () => {
      cancelAnimationFrame(frame);
      resized.disconnect();
      window.removeEventListener('scroll', place);
      window.removeEventListener('resize', place);
    };
  }, [toasts]);

  const style: CSSProperties | undefined =
    edge === 'top' ? { top: 0, bottom: 'auto' } : edge === 'bottom' ? { top: 'auto', bottom: 0 } : undefined;
  return { viewportRef, style };
}
