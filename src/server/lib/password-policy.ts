// Which passwords we accept (NIST SP 800-63B §3.1.1.2; decision 0029): any 8 to 256 characters
// (the contract), except those an attacker tries first: common and breached-list passwords,
// repeats, sequences, keyboard walks, dates, and the person's own email or name. The estimate is
// zxcvbn-ts with its common-passwords dictionary, both from npm and loaded once, on first use
// (required then, not imported: its dictionaries are megabytes the server's start does not need,
// decision 0077).
// No composition rules: "violet harbour lantern" is better than "P@ssw0rd!".
import { createRequire } from 'node:module';
import type { ZxcvbnFactory, ZxcvbnResult } from '@zxcvbn-ts/core';
import { fail } from '../errors.js';

const load = createRequire(import.meta.url);

/** zxcvbn scores 0-4; 0 and 1 mean fewer than a million guesses, what online guessing reaches. */
const MIN_SCORE = 2;

/** The estimate's cost grows fast with length (0.4 s of CPU for 256 characters); what is strong
 * in its first 100 characters is strong. */
const ESTIMATED_LENGTH = 100;

/** Words that belong to this product: a password built on them is guessed first here. */
const SITE_WORDS = ['social media toolkit', 'socialmediatoolkit', 'toolkit'];

type Reason = 'common' | 'similar' | 'repeat' | 'pattern' | 'dates' | 'word' | 'personal' | 'blank';

/** Nothing but white space (any: line breaks, tabs, Unicode spaces) and invisible characters. */
const BLANK = /^[\p{White_Space}\p{Cc}\p{Cf}]*$/u;

/** zxcvbn's warning keys (its translation keys) to our reasons; others get the general message. */
const REASONS: Record<string, Reason> = {
  topTen: 'common',
  topHundred: 'common',
  common: 'common',
  pwned: 'common',
  similarToCommon: 'similar',
  simpleRepeat: 'repeat',
  extendedRepeat: 'repeat',
  sequences: 'pattern',
  straightRow: 'pattern',
  keyPattern: 'pattern',
  recentYears: 'dates',
  dates: 'dates',
  wordByItself: 'word',
  namesByThemselves: 'word',
  commonNames: 'word',
  userInputs: 'personal',
};

let estimator: ZxcvbnFactory | null = null;
function estimate(password: string, inputs: string[]): ZxcvbnResult {
  if (!estimator) {
    const { ZxcvbnFactory } = load('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
    const common = load('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
    estimator = new ZxcvbnFactory({
      dictionary: { ...common.dictionary, siteWords: SITE_WORDS },
      graphs: common.adjacencyGraphs,
    });
  }
  return estimator.check(password, inputs);
}

/** Throws 400 auth.weak_password, saying why, for a password an attacker would try early. */
export function checkPassword(password: string, about: { email?: string | null; names?: Array<string | null> }) {
  // zxcvbn scores eight line breaks as random characters (issue 34): blank is blank, whatever the kind.
  if (BLANK.test(password)) throw fail('auth.weak_password', { variant: 'blank' });
  const inputs = [about.email ?? '', (about.email ?? '').split('@')[0], ...(about.names ?? [])]
    .map((s) => (s ?? '').trim().toLowerCase())
    .filter((s) => s.length >= 3);
  const result = estimate(password.slice(0, ESTIMATED_LENGTH), inputs);
  if (result.score >= MIN_SCORE) return;
  const reason = result.feedback.warning ? REASONS[result.feedback.warning] : undefined;
  throw fail('auth.weak_password', reason ? { variant: reason } : {});
}
