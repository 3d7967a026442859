// Who is Pro, who is admin, and what the quota says. Pure rules over a user row.
import { FREE_DOWNLOAD_LIMIT } from '../../shared/constants.js';
import type { AuthUser, SubscriptionStatus } from '../../shared/contracts/index.js';
import type { JobOwner } from '../jobs/catalogue.js';
import type { User } from '../db/repositories/users.repository.js';

export function isPro(user: User, now = new Date()): boolean {
  return user.proGranted || (user.proUntil !== null && user.proUntil.getTime() > now.getTime());
}

/** Whose media job this is: Pro before free in the queue (priority processing, decision 0092 'Product and plans'). */
export function mediaJobOwner(user: User): JobOwner {
  return { owner: user.id, plan: isPro(user) ? 2 : 1 };
}

/**
 * Administrators come only from verified sources: the command line (`adminGranted`), or an
 * ADMIN_EMAILS address whose identity provider verified it. A password sign-up proves nothing
 * about an email, so registering an ADMIN_EMAILS address first never makes anyone admin.
 */
export function isAdmin(user: User, adminEmails: readonly string[]): boolean {
  if (user.adminGranted) return true;
  return user.emailVerified && !!user.email && adminEmails.includes(user.email.toLowerCase());
}

export function remainingDownloads(user: User): number {
  return Math.max(0, FREE_DOWNLOAD_LIMIT - user.downloadCount);
}

export function toAuthUser(user: User, adminEmails: readonly string[], now = new Date()): AuthUser {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    profileImageUrl: user.profileImageUrl,
    subscriptionStatus: user.subscriptionStatus,
    isPro: isPro(user, now),
    isAdmin: isAdmin(user, adminEmails),
  };
}

/** The shape of decision 0092 'Subscription status'. `subscription` is filled by billing when there is one. */
export function subscriptionStatusOf(
  user: User,
  subscription: SubscriptionStatus['subscription'] = null,
  now = new Date(),
): SubscriptionStatus {
  const pro = isPro(user, now);
  const remaining = remainingDownloads(user);
  return {
    downloadCount: user.downloadCount,
    isProUser: pro,
    subscriptionStatus: pro && user.subscriptionStatus === 'free' ? 'active' : user.subscriptionStatus,
    canDownload: pro || remaining > 0,
    remainingDownloads: remaining,
    subscription,
  };
}
