import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import type { ReactNode } from 'react';
import { TOOLTIP_DELAY, TOOLTIP_SKIP_DELAY } from '@shared/constants';

export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <TooltipPrimitive.Provider delayDuration={TOOLTIP_DELAY} skipDelayDuration={TOOLTIP_SKIP_DELAY}>
      {children}
    </TooltipPrimitive.Provider>
  );
}

export function Tooltip({ content, children }: { content: ReactNode; children: ReactNode }) {
  return (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content
          role="tooltip"
          sideOffset={4}
          className="z-50 rounded-md bg-slate-900 px-3 py-1.5 text-xs text-white shadow-md"
        >
          {content}
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
}
