// Which passwords we accept (NIST SP 800-63B §3.1.1.2; decision 0029): any 8 to 256 characters
// (the contract), except those an attacker tries first: common and breached-list passwords,
// repeats, sequences, keyboard walks, dates, and the person's own email or name. The estimate is
// zxcvbn-ts with its common-passwords dictionary, both from npm and loaded once, on first use.
// No composition rules: "violet harbour lantern" is better than "P@ssw0rd!".
import { ZxcvbnFactory, type ZxcvbnResult } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import { fail } from '../errors.js';

/** zxcvbn scores 0-4; 0 and 1 mean fewer than a million guesses, what online guessing reaches. */
const MIN_SCORE = 2;

/** The estimate's cost grows fast with length (0.4 s of CPU for 256 characters); what is strong
 * in its first 100 characters is strong. */
const ESTIMATED_LENGTH = 100;

/** Words that belong to this product: a password built on them is guessed first here. */
const SITE_WORDS = ['social media toolkit', 'socialmediatoolkit', 'toolkit'];

type Reason = 'common' | 'similar' | 'repeat' | 'pattern' | 'dates' | 'word' | 'personal';

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
    estimator = new ZxcvbnFactory({
      dictionary: { ...common.dictionary, siteWords: SITE_WORDS },
      graphs: common.adjacencyGraphs,
    });
  }
  return estimator.check(password, inputs);
}

/** Throws 400 auth.weak_password, saying why, for a password an attacker would try early. */
export function checkPassword(password: string, about: { email?: string | null; names?: Array<string | null> }) {
  const inputs = [about.email ?? '', (about.email ?? '').split('@')[0], ...(about.names ?? [])]
    .map((s) => (s ?? '').trim().toLowerCase())
    .filter((s) => s.length >= 3);
  const result = estimate(password.slice(0, ESTIMATED_LENGTH), inputs);
  if (result.score >= MIN_SCORE) return;
  const reason = result.feedback.warning ? REASONS[result.feedback.warning] : undefined;
  throw fail('auth.weak_password', reason ? { variant: reason } : {});
}
