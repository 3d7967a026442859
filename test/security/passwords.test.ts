// Passwords (issue 31, NIST SP 800-63B): any 8 characters used to pass ("12345678", "password",
// eight spaces). Now common, breached-list and personal passwords are refused with the reason, on
// the sign-up API and on the command line; long passphrases (64 characters and more) pass.
// Issue 34: eight line breaks ("\n" × 8, "\r\n" × 4) were accepted while eight spaces were refused;
// a password of white space is refused whatever the white space.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('passwords at sign-up and on the command line', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const register = (email: string, password: string) =>
    t.client().post('/api/auth/register', { email, password, firstName: 'Marguerite' });

  it.each([
    ['12345678', 'This password is too common. Try a longer one, such as a few unrelated words.'],
    ['password', 'This password is too common. Try a longer one, such as a few unrelated words.'],
    ...[
      '        ',
      '\n'.repeat(8),
      '\r\n'.repeat(4),
      '\t'.repeat(8),
      ' \t\n\r\v\f  ',
      '\u00a0\u2003\u3000\u2028\u202f\u205f\u1680\u2009',
      '\u200b'.repeat(8),
    ].map((blank) => [blank, 'A password needs more than spaces and line breaks. Try a few unrelated words instead.']),
    ['P@ssw0rd1', 'This password is too close to a common one. Try a few unrelated words instead.'],
    ['abcdefghij', 'This password is a keyboard pattern or a sequence. Try a few unrelated words instead.'],
    ['a'.repeat(256), 'This password repeats the same characters. Try a few unrelated words instead.'],
    ['lucienne.dupont', 'This password contains your email address or name. Try a few unrelated words instead.'],
    ['marguerite', 'This password contains your email address or name. Try a few unrelated words instead.'],
  ])('refuses %j, saying why', async (password, message) => {
    const res = await register('lucienne.dupont@example.com', password);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'auth.weak_password', message });
  });

  it('takes a long passphrase, 64 characters and more, and signs in with it', async () => {
    const phrase = `${'violet harbour lantern '.repeat(4)}quietly`;
    expect(phrase.length).toBeGreaterThan(64);
    expect((await register('phrase@example.com', phrase)).status).toBe(201);
    expect((await t.client().post('/api/auth/login', { email: 'phrase@example.com', password: phrase })).status).toBe(
      200,
    );
    expect((await register('toolong@example.com', 'x'.repeat(257))).status).toBe(400);
  });

  it('refuses the same passwords on the command line', async () => {
    const run = (password: string) =>
      t.ctx.services.admin.run({
        command: 'user:create',
        email: 'cli@example.com',
        password,
        pro: false,
        admin: false,
      });
    await expect(run('iloveyou')).rejects.toMatchObject({ code: 'auth.weak_password' });
    await expect(run('a long password')).resolves.toMatch(/^Created cli@example.com/);
  });
});
