import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { TOAST_DURATION, TOAST_SWIPE_THRESHOLD } from '@shared/constants';
import { dismiss, useToast } from '../../hooks/use-toast';
import { useClearEdge } from './toast-placement';

export default function Toaster() {
  const { toasts } = useToast();
  const { viewportRef, style } = useClearEdge(toasts);
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION} swipeDirection="right" swipeThreshold={TOAST_SWIPE_THRESHOLD}>
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => !open && dismiss(t.id)}
          data-testid="toast"
          data-variant={t.variant ?? 'default'}
          className={`group pointer-events-auto relative flex w-full items-start justify-between gap-3
            overflow-hidden rounded-md border p-4 pr-8 shadow-lg data-[state=closed]:opacity-0
            data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] ${
              t.variant === 'destructive'
                ? 'border-red-600 bg-red-600 text-white'
                : 'border-slate-200 bg-white text-slate-900'
            }`}
        >
          <div className="grid gap-1">
            {t.title && <ToastPrimitive.Title className="text-sm font-semibold">{t.title}</ToastPrimitive.Title>}
            {t.description && (
              <ToastPrimitive.Description className="text-sm opacity-90">{t.description}</ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label="Close"
            className="absolute right-2 top-2 rounded p-1 opacity-70 hover:opacity-100"
          >
            <X className="h-4 w-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      {/* F8 is Radix's default hotkey to focus the region. The edge it sits on is chosen so that it
          covers no `data-next-action` element (toast-placement.ts). */}
      <ToastPrimitive.Viewport
        ref={viewportRef}
        style={style}
        className={
          'pointer-events-none fixed top-0 z-[100] flex max-h-screen w-full ' +
          'flex-col-reverse p-4 sm:bottom-0 sm:right-0 sm:top-auto sm:flex-col md:max-w-[420px]'
        }
      />
    </ToastPrimitive.Provider>
  );
}
