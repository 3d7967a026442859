// HTML of the built-in test checkout page. Plainly marked as a test: no money moves.
import { PRO_PRICE_USD } from '../../shared/constants.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderTestCheckoutPage(c: { id: string; status: string }): string {
  const id = esc(c.id);
  const open = c.status === 'APPROVAL_PENDING';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test payment - Social Media Toolkit</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f8fafc;color:#0f172a}
.banner{background:#b45309;color:#fff;text-align:center;padding:12px 16px;font-weight:700;letter-spacing:.02em}
main{max-width:440px;margin:40px auto;padding:0 16px}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:24px;box-shadow:0 1px 2px rgba(0,0,0,.05)}
h1{font-size:22px;margin:0 0 4px}.muted{color:#475569;font-size:14px;line-height:1.5}
.price{font-size:32px;font-weight:800;margin:16px 0 4px}.price span{font-size:15px;font-weight:500;color:#475569}
.row{display:flex;gap:12px;margin-top:24px;flex-wrap:wrap}form{flex:1;min-width:200px;display:flex}
button{flex:1;box-sizing:border-box;min-height:48px;padding:12px 16px;border-radius:8px;font:600 15px/1.25 inherit;
font-family:inherit;white-space:nowrap;cursor:pointer;border:1px solid #cbd5e1;background:#fff;color:#0f172a}
button.primary{background:#7c3aed;border-color:#7c3aed;color:#fff}
code{font-size:12px;color:#475569}
</style></head>
<body>
<div class="banner" role="alert">TEST PAYMENT - no money will be charged</div>
<main><div class="card">
<h1>Test checkout</h1>
<p class="muted">PayPal is not configured on this server, so this built-in test checkout stands in for it.
Approving activates Pro as a real payment would; nothing is charged.</p>
<div class="price">$${PRO_PRICE_USD}<span>/month</span></div>
<p class="muted">Social Media Toolkit Pro &middot; subscription <code>${id}</code></p>
${
  open
    ? `<div class="row">
<form method="post" action="/api/billing/test-checkout/${id}/approve">
<button type="submit" class="primary">Approve test payment</button></form>
<form method="post" action="/api/billing/test-checkout/${id}/cancel"><button type="submit">Cancel and return</button></form>
</div>`
    : `<p class="muted">This checkout is already ${esc(c.status.toLowerCase().replace('_', ' '))}.</p>
<div class="row"><form method="post" action="/api/billing/test-checkout/${id}/approve">
<button type="submit" class="primary">Return to Social Media Toolkit</button></form></div>`
}
</div></main>
</body></html>`;
}
