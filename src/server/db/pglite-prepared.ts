// PGlite with named prepared statements (decision 0107).
//
// PGlite's `query()` runs every statement as six separate calls into WebAssembly (parse, describe
// the statement, bind, describe the portal, execute, sync), parsing and planning it each time.
// Drizzle sends the same few statement texts over and over (the session read on every request,
// the download reservation and its commit), so here each text is parsed once under a name, and
// each run is one batch: bind, describe, execute, sync. Same locks, same parameter serializers,
// same result parsing and errors as PGlite's own `query()`, in about half the time.
//
// Transactions (`transaction()`) and `exec()` are untouched: they keep PGlite's own path.
import { PGlite, parse, protocol, type QueryOptions, type Results } from '@electric-sql/pglite';

const { serialize } = protocol;
/** Distinct statement texts kept prepared; later new texts take PGlite's own path. */
const MAX_PREPARED = 500;
/** "cached plan must not change result type": the schema changed under a prepared statement. */
const PLAN_CHANGED = '0A000';

interface Prepared {
  name: string;
  paramTypes: number[];
}

export class PreparedPGlite extends PGlite {
  private readonly prepared = new Map<string, Prepared>();
  private counter = 0;
  /** Off until the migrations ran: DDL must not meet statements planned against the old schema. */
  preparing = false;

  override async query<T>(query: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    if (
      !this.preparing ||
      options?.blob ||
      options?.paramTypes ||
      (!this.prepared.has(query) && this.prepared.size >= MAX_PREPARED)
    ) {
      return super.query<T>(query, params, options);
    }
    await this._checkReady();
    // The same two locks PGlite's query() takes: never inside someone else's transaction.
    return this._runExclusiveTransaction(() =>
      this._runExclusiveQuery(() => this.runPrepared<T>(query, params, options)),
    );
  }

  private async runPrepared<T>(
    query: string,
    params: unknown[],
    options: QueryOptions | undefined,
  ): Promise<Results<T>> {
    try {
      const statement = this.prepared.get(query) ?? (await this.prepare(query));
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const oid = statement.paramTypes[i];
        const serializer = options?.serializers?.[oid] ?? this.serializers[oid];
        return serializer ? serializer(value) : String(value);
      });
      const messages = await this.execProtocolStream(
        Buffer.concat([
          serialize.bind({ statement: statement.name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { syncToFs: false },
      );
      await this.syncToFs();
      return parse.parseResults(messages, this.parsers, options)[0] as Results<T>;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === PLAN_CHANGED) await this.forget(query);
      // As PGlite's own errors carry them (PGliteError).
      if (code !== undefined) Object.assign(err as object, { query, params, queryOptions: options });
      throw err;
    }
  }

  private async prepare(query: string): Promise<Prepared> {
    const name = `smt_${++this.counter}`;
    const messages = await this.execProtocolStream(
      Buffer.concat([
        serialize.parse({ name, text: query }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    this.prepared.set(query, statement);
    return statement;
  }

  private async forget(query: string): Promise<void> {
    const statement = this.prepared.get(query);
    if (!statement) return;
    this.prepared.delete(query);
    await this.execProtocolStream(
      Buffer.concat([serialize.close({ type: 'S', name: statement.name }), serialize.sync()]),
      { syncToFs: false },
    );
  }
}
