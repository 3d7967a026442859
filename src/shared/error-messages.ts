// Every error the API answers, as data (decision 0020): a dotted code, its HTTP status and its English
// template. `{name}` is filled from the error's `params`; where one code has several wordings,
// `params.variant` picks one of `variants` (no variant: `message`). The server builds its errors
// from here (server/errors.ts `fail`) and the client renders the same text, so it could translate it.

type Entry = {
  readonly status: number;
  readonly message: string;
  readonly variants?: Readonly<Record<string, string>>;
  /** Seconds for a Retry-After header when the thrower gives none. */
  readonly retryAfter?: number;
};

export const ERROR_CATALOGUE = {
  // The framework and the request itself
  not_found: { status: 404, message: 'Not found.' },
  internal: { status: 500, message: 'Something went wrong on our side. Please try again.' },
  rate_limited: { status: 429, message: 'Too many requests. Please slow down and try again shortly.' },
  'request.invalid': {
    status: 400,
    message: '{issue}',
    variants: { field: '{field}: {issue}', unknown: 'Invalid request' },
  },
  'request.malformed_json': { status: 400, message: 'The request body is not valid JSON.' },
  'request.nul_character': { status: 400, message: 'Text must not contain NUL characters (U+0000).' },
  'request.not_navigation': {
    status: 403,
    message:
      'This link spends a download or starts work: open it yourself (click it) rather than from a picture or a script.',
  },
  // A spending GET without Fetch Metadata (a plain-http address) and without this person's key (decision 0082).
  'request.unkeyed_link': {
    status: 403,
    message:
      'This link spends a download or starts work, and it was not made on this site for your account (another site may have sent you here). Open it from this site: look the video up again and click Download there.',
    variants: {
      expired: 'This link has expired. Look the video up again on this site and click Download there.',
    },
  },
  'request.aborted': { status: 499, message: 'The request was cancelled.' },
  'request.range': { status: 416, message: 'The requested range is not available.' },
  'request.fst_err_ctp_body_too_large': { status: 413, message: 'Request body is too large' },
  'request.fst_err_ctp_invalid_media_type': { status: 415, message: 'Unsupported Media Type' },
  'request.fst_err_ctp_invalid_content_length': {
    status: 400,
    message: 'Request body size did not match Content-Length',
  },
  'request.fst_err_ctp_empty_json_body': {
    status: 400,
    message: "Body cannot be empty when content-type is set to 'application/json'",
  },
  // Refused before any route runs (the router's and Node's HTTP parser's own refusals)
  'request.bad_url': { status: 400, message: 'This address is not a valid URL.' },
  'request.uri_too_long': { status: 414, message: 'This address is too long.' },
  'request.headers_too_large': { status: 431, message: 'The request headers are too large.' },
  'request.unreadable': { status: 400, message: 'The request could not be read.' },
  'request.timeout': { status: 408, message: 'The request took too long to arrive.' },

  // Our own infrastructure (decision 0012)
  'service.database_unavailable': {
    status: 503,
    message: 'The service is briefly unavailable (database). Please try again in a few seconds.',
    retryAfter: 5,
  },
  'service.rate_limits_unavailable': {
    status: 503,
    message: 'The server cannot check request limits right now. Please try again in a moment.',
  },
  'storage.full': {
    status: 507,
    message: 'The server has run out of storage space. Please try again later.',
    retryAfter: 60,
  },
  'health.database': { status: 503, message: 'The database is not answering.' },

  // Accounts
  'auth.required': { status: 401, message: 'Please sign in to continue.', variants: { me: 'Not signed in.' } },
  'auth.invalid_credentials': { status: 401, message: 'Incorrect email or password.' },
  'auth.rate_limited': { status: 429, message: 'Too many sign-in attempts. Please wait a few minutes and try again.' },
  'auth.email_taken': {
    status: 409,
    message: 'An account with this email already exists. Please sign in.',
    variants: { admin: 'An account with the email {email} already exists.' },
  },
  'auth.weak_password': {
    status: 400,
    message: 'This password is too easy to guess. Try a longer one, such as a few unrelated words.',
    variants: {
      common: 'This password is too common. Try a longer one, such as a few unrelated words.',
      similar: 'This password is too close to a common one. Try a few unrelated words instead.',
      repeat: 'This password repeats the same characters. Try a few unrelated words instead.',
      pattern: 'This password is a keyboard pattern or a sequence. Try a few unrelated words instead.',
      dates: 'Dates and years are easy to guess. Try a few unrelated words instead.',
      word: 'A single word or name is easy to guess. Add a few more unrelated words.',
      personal: 'This password contains your email address or name. Try a few unrelated words instead.',
      blank: 'A password needs more than spaces and line breaks. Try a few unrelated words instead.',
    },
  },
  'auth.bad_origin': { status: 403, message: 'This request did not come from this site and was refused.' },
  'auth.this_machine_only': {
    status: 403,
    message:
      'This server is set up for the machine it runs on ({publicUrl}): from other machines it can be read, not used. Its operator sets PUBLIC_URL to serve them.',
  },
  'auth.admin_required': { status: 403, message: 'Administrators only.' },
  'auth.local_disabled': { status: 403, message: 'Accounts are created through the sign-in provider.' },
  'user.not_found': { status: 404, message: 'No account with the email {email}.' },

  // Plans, quota and billing
  'billing.pro_required': { status: 403, message: 'This is a Pro feature. Upgrade to use it.' },
  'quota.exhausted': {
    status: 403,
    message: "You've reached the free plan limit of {limit} downloads. Upgrade to Pro for unlimited downloads.",
  },
  'billing.unavailable': { status: 503, message: 'Subscriptions are not available right now. Please try again later.' },
  'billing.provider_error': {
    status: 502,
    message: 'Failed to create PayPal subscription. Please try again.',
    variants: {
      no_answer: 'The payment provider did not answer. Please try again in a moment.',
      cancel: 'Failed to cancel subscription',
    },
  },
  'billing.rate_limited': {
    status: 429,
    message: 'Too many subscription requests. Please wait a minute and try again.',
  },
  'billing.already_subscribed': { status: 409, message: 'You already have an active subscription.' },
  'billing.subscription_not_found': { status: 404, message: 'We could not find this subscription.' },
  'billing.subscription_mismatch': { status: 403, message: 'This subscription does not belong to your account.' },
  'billing.subscription_inactive': { status: 409, message: 'This subscription is no longer active.' },
  'billing.no_subscription': { status: 404, message: 'You have no active subscription to cancel.' },
  'billing.checkout_not_found': { status: 404, message: 'This test checkout does not exist.' },
  'billing.test_checkout_elsewhere': {
    status: 403,
    message: 'The test checkout opens only at {url}.',
    variants: { loopback: 'The test checkout opens only at {url}, on the machine that runs this server.' },
  },
  'billing.webhooks_unavailable': { status: 503, message: 'PayPal webhooks are not configured (PAYPAL_WEBHOOK_ID).' },
  'billing.webhook_invalid': {
    status: 400,
    message: 'Invalid webhook signature.',
    variants: {
      not_json: 'The webhook body is not JSON.',
      no_id: 'The webhook event has no id or type.',
      empty: 'The webhook body is empty.',
    },
  },

  // Links and videos (platform-neutral: `{platform}` is the platform's name, `{platforms}` the registered ones')
  'link.unsupported': {
    status: 400,
    // The schema message of decision 0092 'Short-video URL', for a missing, malformed or unknown link (issue 31).
    message: 'Please provide a valid {platforms} URL',
    variants: {
      provide: 'Please provide a valid {platforms} URL',
      short_link: 'This short link does not lead to a {platform} video.',
      photo_post: 'This {platform} post is a photo slideshow and has no video file to download.',
      no_media: 'This {platform} post has no video or pictures to download. Try a post with a video.',
      text_post: 'This {platform} post is text only: it has no video or pictures to download. Try a post with a video.',
      comment:
        'This {platform} link points to a comment, which has no video or pictures of its own. Paste the link of the post itself.',
      unknown_platform: "Unknown platform '{id}'.",
    },
  },
  'video.not_found': {
    status: 404,
    message: 'This {platform} video was removed or does not exist. Check the link or try a different video.',
    variants: {
      withheld:
        'This {platform} post cannot be shown: its author blocks it from view or their account was taken down. Try a different video.',
      removed: 'This {platform} post was removed or deleted, so its media is gone. Try a different post.',
      banned: 'This {platform} community was banned, so its posts are gone. Try a different post.',
    },
  },
  'video.private': {
    status: 403,
    message: 'This {platform} video is private, so it cannot be downloaded. Try a public video.',
    variants: {
      community: 'This {platform} community is private, so its posts cannot be downloaded. Try a public post.',
    },
  },
  'video.region_blocked': {
    status: 451,
    message: "This {platform} video is not available in our server's region. Try a different video.",
  },
  'video.login_required': {
    status: 403,
    message: '{platform} requires a login to view this video, so it cannot be downloaded. Try a different video.',
    variants: {
      quarantined:
        'This {platform} community is quarantined: {platform} shows it only to accounts that opted in, so its posts cannot be downloaded here.',
      author_asked:
        'The author of this {platform} post asked {platform} not to show their posts to people who are not signed in, so we do not download it.',
    },
  },
  // Whole profiles (issue 45): `{platform}` names the platform.
  'profile.not_found': {
    status: 404,
    message: 'There is no {platform} profile at this link. Check the handle and try again.',
  },
  'profile.unavailable': {
    status: 403,
    message: 'This {platform} profile cannot be shown.',
    variants: {
      deactivated: 'This {platform} account is deactivated, so its posts cannot be listed.',
      suspended: 'This {platform} account was suspended or taken down, so its posts cannot be listed.',
      blocked: 'This {platform} profile blocks access to its posts, so they cannot be listed.',
      logged_out:
        'This {platform} author asked {platform} not to show their posts to people who are not signed in, so we do not list or download them.',
    },
  },
  'profile.no_media': {
    status: 404,
    message: 'This {platform} profile has no posts with videos or pictures.',
  },

  'video.age_restricted': {
    status: 403,
    message: 'This {platform} video is age-restricted and can only be viewed when logged in. Try a different video.',
    variants: {
      refused: 'This {platform} post is marked over 18, and this server is set not to download such posts.',
    },
  },
  'video.quality_unavailable': {
    status: 400,
    message:
      "The quality '{quality}' is not available for this video. Fetch the video again and pick one of its options.",
    variants: {
      photo_post:
        "This is a photo post: download it as 'images' (a ZIP of its {slides} slides) or 'slideshow' (a video).",
    },
  },
  'video.no_music': { status: 404, message: 'This video has no separate sound track.' },
  'video.no_thumbnail': { status: 404, message: 'This video has no thumbnail.' },
  'video.no_slide': {
    status: 404,
    message: 'This photo post has {slides} slides.',
    variants: {
      not_photo: 'This post is a video, not a photo post.',
      none: 'This photo post has no slides {platform} would show.',
    },
  },
  'video.sound_unavailable': {
    status: 424,
    message: '{platform} did not send the sound for this quality.',
    variants: { post: '{platform} would not send the sound of this post right now. Please fetch it again and retry.' },
  },

  // The platforms' and other sites' servers (decision 0103: 4xx, not our fault)
  'upstream.unavailable': {
    status: 424,
    message: '{platform} is not answering right now. Please try again in a few minutes.',
    variants: {
      refused: '{platform} refused to send this file right now. Please fetch the video again and retry.',
      files:
        '{platform} would not send any file of this video right now (tried {tried}). Please fetch it again and retry.',
      slide: '{platform} would not send slide {n} of this post right now. Please fetch it again and retry.',
      redirects: 'The site redirected too many times.',
      broken_redirect: 'The site answered with a broken redirect.',
      broken_response: 'The site answered with a broken response.',
      closed: 'The site closed the connection.',
      unreachable: 'The site could not be reached.',
      upload_redirect: 'The endpoint redirected an upload, which cannot be sent twice.',
    },
  },
  'upstream.rate_limited': {
    status: 429,
    message: '{platform} is limiting our requests right now. Please try again in a few minutes.',
    retryAfter: 60,
  },
  // A site limiting how often this server asks (its 429 to us): our own pace, never the person's fault, so 503.
  'upstream.busy': {
    status: 503,
    message: '{platform} is limiting how often this server may ask right now. Please try again shortly.',
    retryAfter: 60,
  },
  'upstream.blocked': {
    status: 400,
    message: 'This is not a valid link.',
    variants: {
      endpoint: 'This address is not the configured endpoint.',
      credentials: 'Links with a user name or password are not allowed.',
      https: 'Only https links are allowed.',
      port: 'Links with a custom port are not allowed.',
      host: 'This link points to a host that is not allowed.',
      private: 'This link points to a private address.',
      header: 'A request header is not valid.',
    },
  },
  'upstream.timeout': {
    status: 424,
    message: 'The site took too long to answer.',
    variants: {
      stalled: 'The download stalled: nothing was read for too long.',
      slow: 'The site sent the file too slowly.',
      deadline: 'The site took too long to send the whole file.',
    },
  },
  'upstream.too_large': {
    status: 424,
    message: 'The file is larger than allowed.',
    variants: { page: 'The page is larger than allowed.' },
  },
  'upstream.incomplete': {
    status: 502,
    message: 'The video file stopped arriving before it was complete. Please try again.',
  },
  'upstream.not_media': {
    status: 424,
    message: 'The site sent a file of type {type}, not a video, sound or picture.',
    variants: { unnamed: 'The site sent a file of a type it did not name properly, not a video, sound or picture.' },
  },

  // Media processing, results and their links
  'media.no_audio': {
    status: 422,
    message: 'This video has no sound to extract.',
    variants: { post: 'This post has no sound to extract.', transcribe: 'This video has no sound to transcribe.' },
  },
  'media.unreadable': {
    status: 422,
    message: 'This video file could not be read. Please try a different video.',
    variants: {
      sound: 'This video’s sound could not be read. Please try a different video.',
      preview: 'This video could not be previewed.',
      post_sound: 'The sound of this post could not be read. Please try again later.',
    },
  },
  'media.empty': { status: 502, message: 'An empty file arrived for this video. Please try again later.' },
  'media.too_large': {
    status: 413,
    message: 'This video is too large to process here.',
    variants: { result: 'The result is larger than this server allows.' },
  },
  'media.timeout': {
    status: 504,
    message: 'Processing this video took too long. Please try a shorter video.',
    variants: { arrival: 'The video took too long to arrive. Please try again.' },
  },
  'media.busy': {
    status: 503,
    message: 'The media workers are busy right now. Please try again in a few seconds.',
    retryAfter: 10,
  },
  'media.unavailable': {
    status: 503,
    message: 'Media processing is not available on this server (ffmpeg could not be started).',
  },
  'media.interrupted': {
    status: 503,
    message: 'Processing was interrupted on our side. Please try again.',
    retryAfter: 5,
  },
  'media.store_unavailable': { status: 503, message: 'The prepared file could not be read. Please try again.' },
  'media.job_not_found': { status: 404, message: 'This job does not exist any more. Run the tool again.' },
  'media.link_invalid': { status: 403, message: 'This download link is not valid.' },
  'media.link_expired': {
    status: 410,
    message: 'This download link has expired. Run the tool again to get a new one.',
    variants: {
      batch: 'This download link has expired. Please create the batch again.',
      batch_empty: 'No finished files are left in this batch.',
    },
  },
  'media.range': { status: 416, message: 'Requested range not satisfiable.' },

  // Captions
  'transcription.unavailable': {
    status: 503,
    message:
      "Captions are unavailable on this server for this video: it has no captions of its own, and speech recognition isn't set up here.",
  },
  'transcription.no_speech': { status: 422, message: 'No speech was found in this video.' },
  'transcription.failed': { status: 502, message: 'Failed to generate transcription. Please try again.' },
  'transcription.busy': {
    status: 503,
    message: 'The transcription service is busy. Please try again in a minute.',
    retryAfter: 30,
  },
  'transcription.upstream': {
    status: 502,
    message: 'The transcription service sent an unreadable answer.',
    variants: {
      no_answer: 'The transcription service did not answer. Please try again.',
      status: 'The transcription service answered {status}. Please try again later.',
      too_large: 'The transcription service sent an answer larger than allowed.',
    },
  },

  // Batches
  'batch.not_found': { status: 404, message: 'This batch does not exist, or it is not yours.' },
  'batch.item_failed': { status: 503, message: 'This video could not be fetched right now. Please retry it later.' },
  'batch.duplicate': { status: 409, message: 'This video is already in the batch.' },

  // Repost kits (issue 47)
  'repost.not_video': { status: 422, message: 'This post has no video to repost. Please use a video link.' },
  'repost.credit_required': {
    status: 403,
    message: 'The credit to the original author stays on: only your own uploaded video can go without it.',
  },
  'repost.burn_needs_project': {
    status: 400,
    message: 'Burned-in captions come from a caption project: open the video in the caption studio first.',
  },
  'repost.target_refused': {
    status: 422,
    message: '{target} takes videos of {limit} seconds at most; this clip is {seconds} seconds.',
    variants: { too_short: '{target} takes videos of at least {limit} seconds; this clip is {seconds} seconds.' },
  },
  'repost.nothing_made': { status: 422, message: 'No target could take this clip: {reasons}' },

  // Caption studio (issue 29)
  'studio.not_found': { status: 404, message: 'This caption project does not exist, or it is not yours.' },
  'studio.time_out_of_range': {
    status: 400,
    message: 'Caption times must fall within the video (0 to {seconds} seconds).',
  },
  'studio.stale_revision': {
    status: 409,
    message: 'This project was changed in another tab or browser. Reload it to see the latest version.',
  },
  'studio.render_outdated': {
    status: 409,
    message: 'The captions changed while this render waited. Render again to include the latest changes.',
  },
  'studio.source_gone': {
    status: 410,
    message: 'The video of this project is no longer kept here. Start a new project from the link or file.',
  },
  'studio.photo_post': { status: 422, message: 'Photo posts have no video to caption. Please use a video link.' },
  'upload.not_found': { status: 404, message: 'This upload does not exist, or it is not yours.' },
  'upload.not_video': { status: 415, message: 'This file is not a video. Please upload an MP4, MOV or WebM file.' },
  'upload.no_audio': { status: 422, message: 'This video has no sound track, so there is nothing to caption.' },
  'upload.too_long': {
    status: 422,
    message: 'This video is longer than {minutes} minutes. Please upload a shorter clip.',
  },
  'upload.too_large': { status: 413, message: 'This file is larger than {mb} MB. Please upload a smaller video.' },
  'upload.incomplete': {
    status: 422,
    message: 'The file is cut off: it ends before the video does. Please upload the whole file again.',
  },
  'upload.not_finished': { status: 409, message: 'This upload has not finished yet.' },
  'upload.too_many_open': {
    status: 429,
    message: 'You have {max} unfinished uploads. Finish or cancel one before starting another.',
  },
  'upload.open_bytes': {
    status: 413,
    message: 'Your unfinished uploads would pass {mb} MB. Finish or cancel one before starting another.',
  },
  'upload.protocol': { status: 412, message: 'Uploads speak the tus protocol, version 1.0.0 (Tus-Resumable).' },
  'upload.bad_request': { status: 400, message: 'This upload request was refused: {reason}' },
  'upload.offset_conflict': {
    status: 409,
    message: 'This upload is at another offset than the request says. Ask where to resume (HEAD) and go on from there.',
  },
  'upload.failed': {
    status: 503,
    message: 'The upload could not be saved just now. Please try again.',
    retryAfter: 5,
  },

  'trending.not_found': { status: 404, message: 'Video not found' },
  'trending.already_boosted': { status: 409, message: 'You have already boosted this video.' },
  'trending.not_curator': { status: 403, message: 'Only the curator or an administrator can remove this video.' },
  'blog.not_found': { status: 404, message: 'Post not found' },
  'blog.slug_invalid': { status: 400, message: 'Slug must contain letters or numbers' },
  'blog.slug_taken': { status: 409, message: 'That slug is already in use' },
  'blog.too_deep': {
    status: 400,
    message: 'This post nests quotes or lists too deeply to show. Please use fewer levels.',
  },
  'blog.too_complex': {
    status: 400,
    message: 'This post has too much formatting to show. Please simplify it or split it into several posts.',
  },

  // Text work (NLP, Markdown) off the main thread with a time budget (issue 34)
  'text.too_complex': {
    status: 422,
    message: 'This text takes too long to process. Please shorten it or simplify its formatting.',
  },
  'text.busy': {
    status: 503,
    message: 'The text tools are busy right now. Please try again in a few seconds.',
    retryAfter: 2,
  },

  // The command line (npm run cli); `{reason}` is the validator's or the server's own text
  'cli.invalid': { status: 400, message: '{reason}' },
  'cli.failed': { status: 400, message: '{reason}' },
  'cli.usage': { status: 400, message: '{usage}' },
  'cli.billing_unconfigured': {
    status: 400,
    message:
      'PayPal is not configured: set PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET (and ' +
      'PAYPAL_ENV=sandbox or live), then run billing:setup again. Without them the built-in test ' +
      'checkout is used outside production.',
  },
} as const satisfies Record<string, Entry>;

type Catalogue = typeof ERROR_CATALOGUE;
export type ErrorCode = keyof Catalogue;

/** The `{name}`s of a template, as a union of names. */
type Holes<S extends string> = S extends `${string}{${infer P}}${infer Rest}` ? P | Holes<Rest> : never;
type Filled<S extends string> = { [K in Holes<S>]: string | number };
type VariantParams<V> = { [K in keyof V]: { variant: K } & Filled<V[K] & string> }[keyof V];

/** What `fail(code, params)` must be given: every placeholder of the chosen template. */
export type ErrorParams<C extends ErrorCode> =
  | (Filled<Catalogue[C]['message']> & { variant?: undefined })
  | (Catalogue[C] extends { variants: infer V } ? VariantParams<V> : never);

export type ErrorParamValues = Record<string, string | number | undefined>;

export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(ERROR_CATALOGUE, code);

/** The entry's template for these params (the variant's, else the default message). */
export function errorTemplate(code: ErrorCode, params?: ErrorParamValues): string | undefined {
  const entry: Entry = ERROR_CATALOGUE[code];
  const variant = params?.variant;
  if (variant === undefined) return entry.message;
  return entry.variants && Object.hasOwn(entry.variants, variant) ? entry.variants[variant] : undefined;
}

/** The English text of an error, or undefined for an unknown code, variant or a missing param. */
export function renderError(code: unknown, params?: ErrorParamValues): string | undefined {
  if (!isErrorCode(code)) return undefined;
  const template = errorTemplate(code, params);
  if (template === undefined) return undefined;
  let complete = true;
  const text = template.replace(/\{(\w+)\}/g, (hole, name: string) => {
    const value = params && Object.hasOwn(params, name) ? params[name] : undefined;
    if (value === undefined || name === 'variant') {
      complete = false;
      return hole;
    }
    return String(value);
  });
  return complete ? text : undefined;
}
