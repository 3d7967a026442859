// Subscribe, confirm the provider's return, cancel: the calls of decision 0092 'Calls' with its
// subscription 'Toasts'. Every change refreshes the status and the current user (the header badge).
import { useMutation } from '@tanstack/react-query';
import type { SubscriptionConfirmRequest } from '@shared/contracts/subscription';
import { subscriptionCancel, subscriptionConfirm, subscriptionCreate } from '../lib/api';
import { ApiError, errorCode, serverMessage } from '../lib/api-error';
import { queryClient } from '../lib/query-client';
import { toast } from './use-toast';
import { SUBSCRIPTION_STATUS_KEY } from './use-subscription';

export function refreshBilling() {
  void queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_STATUS_KEY });
  void queryClient.invalidateQueries({ queryKey: ['/api/auth/user'] });
}

const statusOf = (err: unknown) => (err instanceof ApiError ? err.status : 0);

export function signInRequired() {
  toast({ title: 'Sign In Required', description: 'Please sign in to subscribe to Pro.', variant: 'destructive' });
  setTimeout(() => window.location.assign('/api/login'), 800);
}

function createFailed(err?: unknown) {
  const message = serverMessage(err) ?? '';
  const description = /email/i.test(message)
    ? 'Please ensure your account profile has a valid email address to create a subscription.'
    : errorCode(err) === 'billing.unavailable'
      ? message
      : 'Failed to create PayPal subscription';
  toast({ title: 'Error', description, variant: 'destructive' });
}

export function useCreateSubscription() {
  return useMutation({
    mutationFn: subscriptionCreate,
    onSuccess: (data) => {
      if (data.approvalUrl) {
        window.location.assign(data.approvalUrl); // the provider's approval page
        return;
      }
      if (data.status.toLowerCase() === 'active') {
        refreshBilling();
        return;
      }
      createFailed();
    },
    onError: (err) => {
      const status = statusOf(err);
      if (status === 401) return signInRequired();
      if (errorCode(err) === 'billing.already_subscribed') {
        refreshBilling();
        return toast({
          title: 'Already subscribed',
          description: 'You already have an active subscription.',
          variant: 'destructive',
        });
      }
      createFailed(err);
    },
  });
}

export function useConfirmSubscription() {
  return useMutation({
    mutationFn: (body: SubscriptionConfirmRequest) => subscriptionConfirm(body),
    onSuccess: (data) => {
      refreshBilling();
      if (data.success && data.subscription.isActive) {
        toast({
          title: 'Subscription Confirmed!',
          description: 'Welcome to Pro! Unlimited downloads and every premium tool are yours.',
        });
      } else {
        toast({
          title: 'Subscription Pending',
          description: 'Your payment is being processed. Please check back in a few minutes.',
        });
      }
    },
    onError: (err) => {
      refreshBilling();
      if (statusOf(err) === 401) return signInRequired();
      const reason = serverMessage(err) ?? 'We could not confirm your subscription.';
      toast({
        title: 'Confirmation Failed',
        description: `${reason} Please contact support if the issue persists.`,
        variant: 'destructive',
      });
    },
  });
}

export function useCancelSubscription() {
  return useMutation({
    mutationFn: subscriptionCancel,
    onSuccess: (data) => {
      refreshBilling();
      toast({ title: 'Subscription Cancelled', description: data.message });
    },
    onError: () => {
      refreshBilling();
      toast({ title: 'Error', description: 'Failed to cancel subscription', variant: 'destructive' });
    },
  });
}
