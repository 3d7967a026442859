import { describe, expect, it } from 'vitest';
import { clearEdge } from '../../src/client/components/ui/toast-placement';

const rect = (left: number, top: number, width: number, height: number) =>
  ({ left, top, right: left + width, bottom: top + height, width, height, x: left, y: top }) as DOMRect;

describe('clearEdge: toasts keep clear of the next thing to press', () => {
  const toastSides = { left: 860, right: 1280 };
  it('keeps the usual edge when nothing is covered there', () => {
    expect(clearEdge('bottom', 100, toastSides, 800, [rect(500, 300, 550, 60)])).toBe('bottom');
    expect(clearEdge('top', 100, toastSides, 800, [])).toBe('top');
  });
  it('moves to the other edge when the usual one would cover a target', () => {
    expect(clearEdge('bottom', 100, toastSides, 800, [rect(500, 735, 550, 60)])).toBe('top');
    expect(clearEdge('top', 100, { left: 0, right: 375 }, 800, [rect(16, 40, 343, 48)])).toBe('bottom');
  });
  it('picks the edge that covers less when both would cover something', () => {
    const targets = [rect(900, 20, 100, 20), rect(900, 700, 300, 100)];
    expect(clearEdge('bottom', 100, toastSides, 800, targets)).toBe('top');
  });
  it('ignores targets beside the toasts', () => {
    expect(clearEdge('bottom', 100, toastSides, 800, [rect(100, 720, 300, 60)])).toBe('bottom');
  });
});
