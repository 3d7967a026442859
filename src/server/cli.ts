// Admin command line: `npm run cli -- <command> [--flags]`, same configuration as the server.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './db/client.js';
import { createUsersRepository } from './db/repositories/users.repository.js';
import { adminCommandSchema, createAdminService } from './services/admin.service.js';
import { sendAdminCommand } from './admin/admin-socket.js';
import { AppError, fail } from './errors.js';
import { billingSetup } from './services/billing-setup.js';
import { makeDataDirPrivate } from './lib/private-data-dir.js';
import { createHttpClient } from './adapters/http/http-client.js';
import { modelsDir } from './adapters/asr/whisper-models.js';
import { fetchModel, importModelFile } from './admin/models-fetch.js';

const USAGE = `Usage: npm run cli -- <command>
  user:create --email E --password P [--pro] [--admin]
  user:grant-pro E
  user:revoke-pro E
  user:grant-admin E
  user:revoke-admin E
  db:migrate
  billing:setup
  models:fetch <tiny.en|tiny|base.en|base|small.en|small>   (a Whisper model into DATA_DIR/models)
  models:import <file>   (a Whisper model file brought by hand, checked against the same pins)`;

type Handler = (
  config: Config,
  args: { positionals: string[]; values: Record<string, string | boolean | undefined> },
) => Promise<string>;

/** Commands beyond the user ones register here (e.g. billing:setup). */
export const extraCommands: Record<string, Handler> = {
  'billing:setup': (config) => billingSetup(config),
  'models:fetch': (config, { positionals }) =>
    fetchModel(positionals[1], {
      http: createHttpClient({ hostMap: config.UPSTREAM_HOST_MAP }),
      dir: modelsDir(config.DATA_DIR),
      pins: config.WHISPER_MODEL_PINS,
      progress: (line) => process.stderr.write(`${line}\n`),
    }),
  'models:import': (config, { positionals }) =>
    importModelFile(positionals[1], { dir: modelsDir(config.DATA_DIR), pins: config.WHISPER_MODEL_PINS }),
};

async function runUserCommand(config: Config, body: unknown): Promise<string> {
  const parsed = adminCommandSchema.safeParse(body);
  if (!parsed.success) throw fail('cli.invalid', { reason: parsed.error.issues[0].message });
  if (!config.DATABASE_URL) {
    // PGlite: a running server owns the database, so ask it; else open the database here.
    const answer = await sendAdminCommand(config.DATA_DIR, parsed.data);
    if (answer) {
      if (answer.status >= 400) throw fail('cli.failed', { reason: answer.message });
      return answer.message;
    }
  }
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const admin = createAdminService({ users: createUsersRepository(database.db), adminEmails: config.ADMIN_EMAILS });
    return await admin.run(parsed.data);
  } finally {
    await database.close();
  }
}

async function main(argv: string[]): Promise<string> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      pro: { type: 'boolean' },
      admin: { type: 'boolean' },
    },
  });
  const [command, arg] = positionals;
  const config = loadConfig();
  makeDataDirPrivate(config.DATA_DIR);
  switch (command) {
    case 'user:create':
      return runUserCommand(config, {
        command,
        email: values.email ?? '',
        password: values.password ?? '',
        pro: !!values.pro,
        admin: !!values.admin,
      });
    case 'user:grant-pro':
    case 'user:revoke-pro':
    case 'user:grant-admin':
    case 'user:revoke-admin':
      return runUserCommand(config, { command, email: arg ?? values.email ?? '' });
    case 'db:migrate': {
      if (!config.DATABASE_URL && (await sendAdminCommand(config.DATA_DIR, {}).catch(() => null))) {
        return 'The running server applied the migrations at its start; nothing to do.';
      }
      const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
      await database.close();
      return `Migrations applied (${database.kind}).`;
    }
    default: {
      const extra = command ? extraCommands[command] : undefined;
      if (extra) return extra(config, { positionals, values });
      throw fail('cli.usage', { usage: USAGE });
    }
  }
}

main(process.argv.slice(2)).then(
  (message) => {
    console.log(message);
    process.exit(0);
  },
  (err) => {
    console.error(
      err instanceof AppError || err instanceof ConfigError
        ? err.message
        : `Failed: ${err instanceof Error ? err.message : err}`,
    );
    process.exit(1);
  },
);
