// Plain HTML form buttons (sign out, the test checkout) post an empty urlencoded body; routes in a
// scope that calls this accept it without reading it. Their Origin check still applies.
import type { FastifyInstance } from 'fastify';

export function acceptFormButtons(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_r, _body, done) => done(null, {}),
  );
}
