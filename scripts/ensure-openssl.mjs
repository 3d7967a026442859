// The fake PayPal signs its webhooks with a self-signed certificate made by the openssl command
// (Node cannot create X.509 certificates). Installed with apt when missing and running as root;
// otherwise the run fails with the exact command. The product itself does not need it.
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';

if (!fs.existsSync('/usr/bin/openssl')) {
  const cmd = 'apt-get update && apt-get install -y openssl';
  if (process.getuid?.() !== 0) {
    console.error(`Missing the Debian package openssl (the fake PayPal's certificate). Install it with: sudo ${cmd}`);
    process.exit(1);
  }
  console.log('Installing openssl for the billing tests...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install = spawnSync('apt-get', ['install', '-y', '-qq', 'openssl'], { stdio: 'inherit', env });
  if (update.status !== 0 || install.status !== 0 || !fs.existsSync('/usr/bin/openssl')) {
    console.error(`Could not install it. Run: ${cmd}`);
    process.exit(1);
  }
}
