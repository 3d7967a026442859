// Sign in or create an account, in place: the sign-in page, the landing page's Download and the
// signed-out "Sign in to use …" screens all use it. With an OpenID provider it is a link instead.
import { useEffect, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { AuthUser } from '@shared/contracts/auth';
import { authLogin, authProvidersGet, authRegister } from '../lib/api';
import { serverMessage } from '../lib/api-error';

export function AuthForm({
  initialMode = 'signin',
  initialError = null,
  onSignedIn,
  headingLevel = 1,
  autoFocus = false,
}: {
  initialMode?: 'signin' | 'register';
  initialError?: string | null;
  onSignedIn: (user: AuthUser) => void | Promise<void>;
  headingLevel?: 1 | 2;
  /** Focus the email field (the form appeared because the person asked to download). */
  autoFocus?: boolean;
}) {
  const [mode, setMode] = useState(initialMode);
  const [error, setError] = useState<string | null>(initialError);
  const [pending, setPending] = useState(false);
  // Sent ready by the server (decision 0074), the form is on screen before its script: until React
  // runs it, the button stays disabled so a native submit cannot put the password in the URL.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const providers = useQuery({ queryKey: ['/api/auth/providers'], queryFn: authProvidersGet });
  const Heading = headingLevel === 1 ? 'h1' : 'h2';

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const body = { email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') };
    const names: Record<string, string> = {};
    for (const k of ['firstName', 'lastName']) if (form.get(k)) names[k] = String(form.get(k));
    setPending(true);
    setError(null);
    try {
      await onSignedIn(await (mode === 'register' ? authRegister({ ...body, ...names }) : authLogin(body)));
    } catch (err) {
      setError(serverMessage(err) ?? 'Something went wrong. Please try again.');
      setPending(false);
    }
  }

  const field =
    'mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-violet-500 ' +
    'focus:outline-none focus:ring-2 focus:ring-violet-200';
  return (
    <div data-testid="auth-form">
      <Heading className="text-2xl font-bold text-slate-900">
        {mode === 'signin' ? 'Sign in' : 'Create your account'}
      </Heading>
      {error && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      )}
      {providers.data?.oidc ? (
        <a
          href="/api/login"
          className="mt-6 block rounded-md bg-violet-600 px-4 py-2 text-center font-semibold text-white hover:bg-violet-700"
        >
          Continue to sign in
        </a>
      ) : (
        <form onSubmit={onSubmit} className="mt-4 space-y-3">
          {mode === 'register' && (
            <div className="grid grid-cols-2 gap-2">
              <label className="text-sm font-medium text-slate-700">
                First name
                <input name="firstName" autoComplete="given-name" className={field} />
              </label>
              <label className="text-sm font-medium text-slate-700">
                Last name
                <input name="lastName" autoComplete="family-name" className={field} />
              </label>
            </div>
          )}
          <label className="block text-sm font-medium text-slate-700">
            Email
            {/* biome-ignore lint/a11y/noAutofocus: opt-in, for the sign-in page whose only task is this form */}
            <input name="email" type="email" required autoComplete="email" autoFocus={autoFocus} className={field} />
          </label>
          <label className="block text-sm font-medium text-slate-700">
            Password
            <input
              name="password"
              type="password"
              required
              minLength={mode === 'register' ? 8 : undefined}
              maxLength={256}
              autoComplete={mode === 'register' ? 'new-password' : 'current-password'}
              aria-describedby={mode === 'register' ? 'password-hint' : undefined}
              className={field}
            />
          </label>
          {mode === 'register' && (
            <p id="password-hint" className="text-xs text-slate-600">
              At least 8 characters. A few unrelated words are easy to remember and hard to guess.
            </p>
          )}
          <button
            type="submit"
            disabled={pending || !hydrated}
            className="w-full rounded-md bg-violet-600 px-4 py-2 font-semibold text-white hover:bg-violet-700 disabled:opacity-60"
          >
            {pending ? 'Please wait...' : mode === 'signin' ? 'Sign in' : 'Create account'}
          </button>
          <p className="text-center text-sm text-slate-600">
            {mode === 'signin' ? 'New here?' : 'Already have an account?'}{' '}
            <button
              type="button"
              className="font-semibold text-violet-700 underline-offset-2 hover:underline"
              onClick={() => {
                setMode(mode === 'signin' ? 'register' : 'signin');
                setError(null);
              }}
            >
              {mode === 'signin' ? 'Create an account' : 'Sign in'}
            </button>
          </p>
        </form>
      )}
    </div>
  );
}
