// The header's plan badge ('PRO' / 'Free (n/6)', decision 0092 'Navigation bar') opens a plan panel: the plan, the
// downloads left and "Manage subscription", so a paying user can always reach /subscription.
// A disclosure (button + panel), closed by Escape, a click elsewhere or following a link.
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { ChevronDown, Crown } from 'lucide-react';
import { FREE_DOWNLOAD_LIMIT, HEADER_UPGRADE_LINK_AT } from '@shared/constants';
import { useSubscriptionStatus } from '../hooks/use-subscription';

export function PlanMenu() {
  const { data } = useSubscriptionStatus();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  if (!data) return null;
  const pro = data.isProUser;
  const left = data.remainingDownloads;
  const upgradeText = left === 0 ? 'Upgrade to continue' : `${left} left - Upgrade`;
  return (
    <div ref={root} className="relative flex min-w-0 items-center gap-2">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={`Your plan: ${pro ? 'Pro' : `Free, ${left} of ${FREE_DOWNLOAD_LIMIT} downloads left`}`}
        onClick={() => setOpen((o) => !o)}
        className="flex flex-none items-center gap-0.5 rounded-full focus:outline-none focus-visible:ring-2 focus-visible:ring-violet-500"
      >
        {pro ? (
          <span
            data-testid="plan-badge"
            className={
              'inline-flex items-center gap-1 whitespace-nowrap rounded-full ' +
              'bg-gradient-to-r from-amber-400 to-orange-500 px-2.5 py-0.5 text-xs font-bold text-white'
            }
          >
            <Crown className="h-3 w-3" aria-hidden />
            PRO
          </span>
        ) : (
          <span
            data-testid="plan-badge"
            className={`whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ${
              left <= HEADER_UPGRADE_LINK_AT ? 'bg-amber-100 text-amber-900' : 'bg-slate-100 text-slate-700'
            }`}
          >
            Free ({data.downloadCount}/{FREE_DOWNLOAD_LIMIT})
          </span>
        )}
        <ChevronDown
          className={`h-3.5 w-3.5 text-slate-500 transition-transform ${open ? 'rotate-180' : ''}`}
          aria-hidden
        />
      </button>
      {/* The header's upgrade link (decision 0092); on a phone it lives in the panel so the header stays one line. */}
      {!pro && left <= HEADER_UPGRADE_LINK_AT && (
        <Link
          href="/subscription"
          data-testid="upgrade-link"
          className="hidden whitespace-nowrap text-xs font-semibold text-violet-700 underline-offset-2 hover:underline sm:inline"
        >
          {upgradeText}
        </Link>
      )}
      {open && (
        <div
          id={panelId}
          data-testid="plan-menu"
          className="absolute right-0 top-full z-50 mt-2 w-64 rounded-xl bg-white p-4 text-sm shadow-xl ring-1 ring-slate-200"
        >
          <p className="font-semibold text-slate-900">{pro ? 'Pro plan' : 'Free plan'}</p>
          <p className="mt-1 text-slate-600" data-testid="plan-menu-downloads">
            {pro ? 'Unlimited downloads' : `${left} of ${FREE_DOWNLOAD_LIMIT} downloads left`}
          </p>
          {!pro && (
            <Link
              href="/subscription"
              onClick={() => setOpen(false)}
              className={
                'mt-3 flex items-center justify-center gap-1.5 rounded-md bg-violet-600 ' +
                'px-3 py-2 font-semibold text-white hover:bg-violet-700'
              }
            >
              <Crown className="h-4 w-4" aria-hidden />
              {left <= HEADER_UPGRADE_LINK_AT ? upgradeText : 'Upgrade to Pro'}
            </Link>
          )}
          <Link
            href="/subscription"
            onClick={() => setOpen(false)}
            className="mt-2 block rounded-md border border-slate-200 px-3 py-2 text-center font-medium text-slate-700 hover:bg-slate-50"
          >
            Manage subscription
          </Link>
        </div>
      )}
    </div>
  );
}
