// Webhook signing for the fake PayPal: a self-signed certificate like PayPal's and the delivery
// headers PayPal sends (docs/sources.md 'PayPal webhooks').
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';

export /** A self-signed certificate like PayPal's (CN messageverificationcerts.sandbox.paypal.com). */
function makeCertificate(cn: string): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-paypal-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        path.join(dir, 'k.pem'),
        '-out',
        path.join(dir, 'c.pem'),
        '-days',
        '365',
        '-subj',
        `/O=PayPal, Inc./CN=${cn}`,
      ],
      { stdio: 'ignore' },
    );
    return {
      key: fs.readFileSync(path.join(dir, 'k.pem'), 'utf8'),
      cert: fs.readFileSync(path.join(dir, 'c.pem'), 'utf8'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Headers of one delivery, signed over `id|time|webhookId|crc32(body)` (CRC-32 as unsigned decimal). */
export function signedDeliveryHeaders(o: {
  key: string;
  webhookId: string;
  certUrl: string;
  signedBody: string;
  time: string;
}): Record<string, string> {
  const transmissionId = crypto.randomUUID();
  const signed = `${transmissionId}|${o.time}|${o.webhookId}|${zlib.crc32(Buffer.from(o.signedBody))}`;
  return {
    'content-type': 'application/json',
    'paypal-transmission-id': transmissionId,
    'paypal-transmission-time': o.time,
    'paypal-transmission-sig': crypto.createSign('RSA-SHA256').update(signed).sign(o.key, 'base64'),
    'paypal-cert-url': o.certUrl,
    'paypal-auth-algo': 'SHA256withRSA',
    'paypal-auth-version': 'v2',
    'user-agent': 'PayPal/AUHD-214.0-58844018',
    'correlation-id': crypto.randomBytes(6).toString('hex'),
  };
}
