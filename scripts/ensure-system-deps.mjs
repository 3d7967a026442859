// What npm cannot install: Debian's Chromium (end-to-end tests). Installed with apt when missing
// and running as root; otherwise the run fails with the exact command to type.
import './ensure-chromium.mjs';
import './ensure-media-deps.mjs';
import './ensure-openssl.mjs';
