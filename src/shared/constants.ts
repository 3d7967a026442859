// Business constants of decision 0092 'Constants', shared by client and server.
export const FREE_DOWNLOAD_LIMIT = 6;
export const UPGRADE_MODAL_AFTER = 5; // count already made before this download
export const HEADER_UPGRADE_LINK_AT = 2; // remaining downloads
export const PRO_PRICE_USD = '9.99';
export const DEFAULT_QUALITY = 'hd';
export const SCROLL_THRESHOLD_PX = 10;
export const TRENDS_REFETCH_MS = 5 * 60 * 1000;
export const TRENDING_CARD_TAGS = 3;
export const TRENDING_LOOKUP_MIN_URL = 10;
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;
export const TOAST_DURATION = 5000;
export const TOAST_SWIPE_THRESHOLD = 50;
export const TOOLTIP_DELAY = 700;
export const TOOLTIP_SKIP_DELAY = 300;
export const PRO_FEATURES = [
  'Unlimited downloads',
  'Priority processing',
  'Advanced captions',
  'Premium hashtag suggestions',
  'Batch processing',
  'Priority support',
] as const;
