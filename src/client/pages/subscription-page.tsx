// Decision 0092 'Subscription screen' (/subscription): Free and Pro cards, status details, upgrade and cancel,
// and the provider's return ('Subscription flow': success, cancel, ids only; then a clean URL).
import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { Check, Crown, Loader2 } from 'lucide-react';
import { FREE_DOWNLOAD_LIMIT, PRO_FEATURES, PRO_PRICE_USD } from '@shared/constants';
import { useAuth } from '../hooks/use-auth';
import { useSubscriptionStatus } from '../hooks/use-subscription';
import { toast } from '../hooks/use-toast';
import { Spinner } from '../components/ui/spinner';
import {
  refreshBilling,
  signInRequired,
  useCancelSubscription,
  useConfirmSubscription,
  useCreateSubscription,
} from '../hooks/use-subscription-actions';

const FREE_FEATURES = [
  `${FREE_DOWNLOAD_LIMIT} video downloads in total`,
  'HD downloads without watermarks',
  'Blog and content optimiser',
];

const STATUS_TEXT: Record<string, string> = {
  active: 'Active',
  pending: 'Pending activation',
  cancelled: 'Cancelled',
  suspended: 'Suspended (payment failed)',
  expired: 'Expired',
  free: 'Free',
};

function formatDate(iso: string | null | undefined): string | null {
  if (!iso) return null;
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

/** Handles the provider's return once, then clears the query string back to /subscription. */
function useProviderReturn() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const confirm = useConfirmSubscription();
  const handled = useRef(false);
  useEffect(() => {
    if (handled.current || !search) return;
    handled.current = true;
    const q = new URLSearchParams(search);
    const subscriptionId = q.get('subscription_id');
    if (q.get('success') === 'true') {
      if (subscriptionId) confirm.mutate({ subscriptionId, token: q.get('token'), baToken: q.get('ba_token') });
      else
        toast({
          title: 'Confirmation Error',
          description: 'Missing subscription information. Please try subscribing again.',
          variant: 'destructive',
        });
    } else if (q.get('cancel') === 'true') {
      toast({
        title: 'Checkout not completed',
        description: 'You left the checkout before paying. No payment was made, and you can upgrade any time.',
      });
    } else if (subscriptionId || q.get('ba_token') || q.get('token')) {
      toast({ title: 'Subscription Detected', description: 'Checking your subscription status...' });
      refreshBilling();
    }
    navigate('/subscription', { replace: true });
  }, [search, navigate, confirm]);
  return confirm.isPending;
}

function Row({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 border-b border-slate-100 py-2 last:border-0">
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd className="text-sm font-medium text-slate-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

export default function SubscriptionPage() {
  const { user } = useAuth();
  const { data, isLoading, error } = useSubscriptionStatus();
  const confirming = useProviderReturn();
  const create = useCreateSubscription();
  const cancel = useCancelSubscription();
  const [askCancel, setAskCancel] = useState(false);

  const sub = data?.subscription ?? null;
  const isPro = !!data?.isProUser;
  const cancelling = !!sub?.cancelAtPeriodEnd;
  const statusText = cancelling
    ? 'Will cancel at period end'
    : (STATUS_TEXT[data?.subscriptionStatus ?? 'free'] ?? data?.subscriptionStatus ?? 'Free');
  const canCancel = sub?.status === 'active' && !cancelling;
  const canUpgrade = !isPro || cancelling;

  const upgrade = () => (user ? create.mutate() : signInRequired());

  return (
    <main className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Subscription</h1>
      <p className="mt-1 text-slate-600">Choose the plan that fits how much you create.</p>

      <section
        className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
        aria-label="Your plan"
        data-testid="subscription-status"
      >
        <h2 className="mb-2 flex items-center gap-2 text-lg font-semibold text-slate-900">
          Your plan
          {confirming && <Loader2 className="h-4 w-4 animate-spin text-violet-600" aria-label="Confirming" />}
        </h2>
        {isLoading ? (
          <Spinner label="Loading..." />
        ) : error || !data ? (
          <p className="text-sm text-red-600">Could not load your subscription status.</p>
        ) : (
          <dl>
            <Row label="Current plan" value={isPro ? 'Pro' : 'Free'} testId="current-plan" />
            <Row label="Status" value={isPro && !sub ? 'Active (granted)' : statusText} testId="subscription-state" />
            {sub?.nextBillingTime && !cancelling && (
              <Row label="Next billing date" value={formatDate(sub.nextBillingTime) ?? ''} />
            )}
            {cancelling && sub?.paidThrough && (
              <Row label="Pro until" value={formatDate(sub.paidThrough) ?? ''} testId="pro-until" />
            )}
            <Row
              label="Downloads"
              value={
                isPro
                  ? 'Unlimited'
                  : `${data.downloadCount} of ${FREE_DOWNLOAD_LIMIT} used (${data.remainingDownloads} left)`
              }
            />
          </dl>
        )}
        {canCancel && !askCancel && (
          <button
            type="button"
            onClick={() => setAskCancel(true)}
            className="mt-4 rounded-lg border border-red-200 px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50"
          >
            Cancel Subscription
          </button>
        )}
        {canCancel && askCancel && (
          // biome-ignore lint/a11y/useSemanticElements: a confirmation panel, not form fields; a fieldset adds borders
          <div
            className="mt-4 rounded-lg border border-red-200 bg-red-50 p-4"
            role="group"
            aria-label="Confirm cancellation"
          >
            <p className="text-sm text-red-800">
              Cancel your Pro subscription? You keep Pro until the end of the period you paid for, then your account
              returns to Free.
            </p>
            <div className="mt-3 flex flex-wrap gap-2">
              <button
                type="button"
                disabled={cancel.isPending}
                onClick={() => cancel.mutate(undefined, { onSettled: () => setAskCancel(false) })}
                className={
                  'inline-flex items-center gap-2 rounded-lg bg-red-600 px-4 py-2 text-sm ' +
                  'font-semibold text-white hover:bg-red-700 disabled:opacity-60'
                }
              >
                {cancel.isPending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
                {cancel.isPending ? 'Cancelling...' : 'Yes, cancel'}
              </button>
              <button
                type="button"
                onClick={() => setAskCancel(false)}
                className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-700"
              >
                Keep Pro
              </button>
            </div>
          </div>
        )}
      </section>

      <div className="mt-6 grid gap-6 md:grid-cols-2">
        <section
          className="flex flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
          aria-label="Free plan"
          data-testid="plan-free"
        >
          <h2 className="text-xl font-semibold text-slate-900">Free</h2>
          <p className="mt-2 text-4xl font-extrabold text-slate-900">
            $0<span className="text-base font-medium text-slate-500">/month</span>
          </p>
          <ul className="mt-5 flex-1 space-y-2">
            {FREE_FEATURES.map((f) => (
              <li key={f} className="flex items-start gap-2 text-sm text-slate-700">
                <Check className="mt-0.5 h-4 w-4 shrink-0 text-slate-400" aria-hidden /> {f}
              </li>
            ))}
          </ul>
          <button
            type="button"
            disabled
            className="mt-6 rounded-lg border border-slate-200 px-4 py-2.5 text-sm font-semibold text-slate-500"
          >
            {isPro ? 'Included' : 'Current Plan'}
          </button>
        </section>

        <section
          className="flex flex-col rounded-xl border-2 border-violet-500 bg-white p-6 shadow-md"
          aria-label="Pro plan"
          data-testid="plan-pro"
        >
          <h2 className="flex items-center gap-2 text-xl font-semibold text-slate-900">
            <Crown className="h-5 w-5 text-amber-500" aria-hidden /> Pro
          </h2>
          <p className="mt-2 text-4xl font-extrabold text-slate-900">
            ${PRO_PRICE_USD}
            <span className="text-base font-medium text-slate-500">/month</span>
          </p>
          <ul className="mt-5 flex-1 space-y-2">
            {PRO_FEATURES.map((f) => (
              <li key={f} className="flex items-start gap-2 text-sm text-slate-700">
                <Check className="mt-0.5 h-4 w-4 shrink-0 text-violet-600" aria-hidden /> {f}
              </li>
            ))}
          </ul>
          {canUpgrade ? (
            <button
              type="button"
              onClick={upgrade}
              disabled={create.isPending || isLoading}
              className={
                'mt-6 inline-flex items-center justify-center gap-2 rounded-lg ' +
                'bg-gradient-to-r from-pink-500 to-violet-600 px-4 py-2.5 text-sm font-semibold ' +
                'text-white shadow hover:opacity-95 disabled:opacity-60'
              }
            >
              {create.isPending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
              {create.isPending ? 'Redirecting...' : cancelling ? 'Subscribe Again' : 'Upgrade to Pro'}
            </button>
          ) : (
            <button
              type="button"
              disabled
              className="mt-6 rounded-lg border border-violet-200 bg-violet-50 px-4 py-2.5 text-sm font-semibold text-violet-700"
            >
              Current Plan
            </button>
          )}
        </section>
      </div>
    </main>
  );
}
