// A text worker thread run from the sources (tests, tsx): tsx's require hook loads worker.ts. On
// Node 20 its import hooks do not reach a worker thread, so a .ts or eval'd entry would be refused.
require('./worker.ts');
