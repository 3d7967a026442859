// The footer pages' texts when the operator wrote none (SITE_PAGES_DIR): what this software does,
// stated plainly, so a fresh install is honest from the start. Markdown, filled in per instance.
import { FREE_DOWNLOAD_LIMIT, PRO_PRICE_USD } from '../../shared/constants.js';
import type { SitePageName } from '../../shared/contracts/site-pages.js';

export interface DefaultsInput {
  contactEmail: string | undefined;
  mediaResultHours: number;
}

const contactLine = (email: string | undefined) =>
  email
    ? `Write to [${email}](mailto:${email}).`
    : 'The operator of this instance has not published a contact address yet.';

export function defaultSitePage(name: SitePageName, input: DefaultsInput): string {
  switch (name) {
    case 'faq':
      return `## What does this site do?

Paste a TikTok link to see the video and save it without a watermark. Pro accounts also get batch
downloads, MP3 audio, captions, hashtag and caption suggestions, and trends.

## Which links work?

Links to a TikTok video or photo post (\`tiktok.com/@user/video/…\`, \`/photo/…\`) and TikTok's short
links (\`vm.tiktok.com\`, \`vt.tiktok.com\`, \`tiktok.com/t/…\`).

## What does it cost?

Looking a video up is free. Downloading needs a free account, which includes ${FREE_DOWNLOAD_LIMIT}
downloads in total. Pro costs $${PRO_PRICE_USD} a month and has no download limit.

## May I download any video?

Only what you have the right to use: your own videos, or videos whose owner allows it.

## Something does not work

${contactLine(input.contactEmail)}`;
    case 'contact':
      return `${contactLine(input.contactEmail)}

Questions about a subscription are answered faster with the email address of your account.`;
    case 'privacy':
      return `This site is run by the operator of this instance. This is what the software keeps and why.

- **Your account**: your email address and a hash of your password (never the password itself),
  or the name and email your sign-in provider gives. Kept until the account is deleted.
- **One cookie**: it keeps you signed in. There are no advertising or analytics cookies.
- **Your downloads**: the link, title, author, quality and time of each download, shown to you in
  "Recent Downloads" until you clear the list. The number of downloads is kept for the free plan's limit.
- **Files made for you** (MP3s, captions, converted videos) are deleted after about
  ${input.mediaResultHours} hours.
- **Videos looked up**: their public statistics and hashtags are kept, without who looked, for the
  trends pages.
- **Payments** go through PayPal; this site keeps the subscription's state, never card details.
- **Server logs**: one line per request (time, address, path, answer), for running the service.

Pages load nothing from other sites: pictures from elsewhere are fetched by this server, so no third
party learns who looked. The videos you fetch are requested from TikTok by this server, not by your browser.

${contactLine(input.contactEmail)}`;
    case 'terms':
      return `By using this site you agree to these terms.

- Download and reuse only what you have the right to: your own content, or content whose owner allows it.
  You are responsible for what you download and publish.
- Do not use the service to harm others, overload it, or get around its limits.
- The free plan includes ${FREE_DOWNLOAD_LIMIT} downloads per account. Pro is billed monthly at $${PRO_PRICE_USD}
  through PayPal and can be cancelled at any time; it then runs until the end of the paid month.
- The service depends on other platforms and is provided as it is, without a guarantee that every video
  can be fetched.
- Accounts that break these terms may be closed.

${contactLine(input.contactEmail)}`;
  }
}
