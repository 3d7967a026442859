export interface NavItem {
  label: string;
  path: string;
  premium: boolean;
}

// Decision 0092 'Navigation bar': labels, paths and the premium flag.
export const NAV_ITEMS: NavItem[] = [
  { label: 'Download', path: '/', premium: false },
  { label: 'Blog', path: '/blog', premium: false },
  { label: 'Hashtags', path: '/hashtag-generator', premium: true },
  { label: 'Audio', path: '/audio-extractor', premium: true },
  { label: 'Captions', path: '/auto-captions', premium: true },
  { label: 'Content', path: '/content-tools', premium: false },
  { label: 'Trends', path: '/trends', premium: true },
  { label: 'Trending', path: '/trending-videos', premium: true },
  // Beyond the founding bar (issue 21): Pro's batch processing.
  { label: 'Batch', path: '/batch', premium: true },
  // Issue 47: a free account's kit costs one download.
  { label: 'Repost', path: '/repost-kit', premium: false },
];
