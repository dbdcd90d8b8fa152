/**
 * npm's effective configuration, read once from the client (`npm config list --long`), and what it says about
 * asking a registry directly: which registry serves a package (its scope's `@scope:registry`, or `registry`), and
 * whether anything makes a plain request differ from what the client would send (credentials for that registry, a
 * proxy, client certificates, TLS checks turned off, offline modes, another default tag). When it does, the caller
 * asks the npm client instead, so that npm's configuration stays the authority.
 */
import { execFile } from 'node:child_process';

/** What npm prints for a setting it will not show (a token, a password). */
const PROTECTED = Symbol('protected');

/** The settings npm applies, each key's value as npm printed it (JSON), or PROTECTED. */
export type NpmConfig = ReadonlyMap<string, unknown>;

/**
 * Reads the text of `npm config list --long`: sections headed `; "<source>" config from …`, in npm's order of
 * precedence, of `key = value` lines, the value a JSON literal or `(protected)`; other lines starting with `;` are
 * overridden values. A later line of a key wins. The defaults print `(protected)` for settings that are unset, so
 * there it means nothing. Undefined when a line is not of that shape: the caller then asks npm itself.
 */
export function readNpmConfigList(text: string): NpmConfig | undefined {
  const config = new Map<string, unknown>();
  let section = '';
  for (const line of text.split('\n')) {
    section = /^; "([^"]+)" config from /.exec(line)?.[1] ?? section;
    if (line.trim() === '' || line.startsWith(';')) continue;
    const at = line.indexOf(' = ');
    if (at <= 0) return undefined;
    const value = line.slice(at + 3).trim();
    if (value === '(protected)') {
      if (section !== 'default') config.set(line.slice(0, at), PROTECTED);
      continue;
    }
    try {
      config.set(line.slice(0, at), JSON.parse(value));
    } catch {
      return undefined;
    }
  }
  return config.has('registry') ? config : undefined;
}

/** A registry to ask directly: its URL (ending in `/`) and the CA file npm trusts for it, if one is set. */
export interface DirectRegistry {
  registry: string;
  cafile?: string;
}

/** The settings that name credentials, top-level or under a registry's `//host/path/:` prefix. */
const CREDENTIALS = ['_auth', '_authToken', '_password', 'password', 'username', 'certfile', 'keyfile'];
/** Environment variables a request would go through a proxy for. */
const PROXY_ENV = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'];

const isSet = (value: unknown) => value !== undefined && value !== null && value !== '' && value !== false;

/** `//host:port/path/`, npm's key prefix for a registry's own settings. */
const nerfDart = (url: URL) => `//${url.host}${url.pathname.replace(/\/?$/, '/')}`;

/** Whether the configuration holds credentials that npm would send to `registry`. */
function hasCredentials(config: NpmConfig, registry: URL): boolean {
  const dart = nerfDart(registry);
  return [...config.keys()].some((key) => {
    if (CREDENTIALS.includes(key)) return isSet(config.get(key));
    const at = key.lastIndexOf(':');
    return key.startsWith('//') && at > 0 && dart.startsWith(key.slice(0, at)) && isSet(config.get(key));
  });
}

/**
 * Why a plain request to `registry` would not be the request npm makes, or undefined when it would be. Pure: the
 * configuration and the environment come in.
 */
function whyNotDirect(config: NpmConfig, env: NodeJS.ProcessEnv, registry: URL): string | undefined {
  if (registry.protocol !== 'http:' && registry.protocol !== 'https:') return `registry protocol ${registry.protocol}`;
  if (registry.search !== '' || registry.hash !== '' || registry.username !== '') return 'registry URL with extras';
  if (hasCredentials(config, registry)) return 'credentials for the registry';
  if (isSet(config.get('proxy')) || isSet(config.get('https-proxy')) || PROXY_ENV.some((v) => isSet(env[v])))
    return 'a proxy';
  for (const key of ['ca', 'cert', 'key', 'offline', 'prefer-offline'])
    if (isSet(config.get(key))) return `${key} is set`;
  if (config.get('strict-ssl') !== true) return 'strict-ssl is not true';
  if (config.get('tag') !== 'latest') return 'the default tag is not latest';
  return undefined;
}

/**
 * The registry npm would ask about `pkg` and how to reach it, or why a direct request would not do (the caller then
 * asks the npm client). Pure.
 */
export function directRegistry(
  config: NpmConfig,
  env: NodeJS.ProcessEnv,
  pkg: string,
): DirectRegistry | { notDirect: string } {
  const scope = /^(@[^/]+)\//.exec(pkg)?.[1];
  const configured = (scope && config.get(`${scope}:registry`)) || config.get('registry');
  if (typeof configured !== 'string') return { notDirect: 'no registry configured' };
  let url: URL;
  try {
    url = new URL(configured);
  } catch {
    return { notDirect: `unreadable registry ${JSON.stringify(configured)}` };
  }
  const why = whyNotDirect(config, env, url);
  if (why) return { notDirect: why };
  const cafile = config.get('cafile');
  return {
    registry: url.href.replace(/\/?$/, '/'),
    ...(typeof cafile === 'string' && cafile !== '' ? { cafile } : {}),
  };
}

const CONFIG_TIMEOUT_MS = 30_000;

/** npm's configuration in `env`, asked once per environment object; undefined when npm could not say it. */
const asked = new WeakMap<NodeJS.ProcessEnv, Promise<NpmConfig | undefined>>();

export function npmConfig(env: NodeJS.ProcessEnv = process.env): Promise<NpmConfig | undefined> {
  let config = asked.get(env);
  if (!config) {
    config = new Promise((resolve) =>
      execFile(
        'npm',
        ['config', 'list', '--long'],
        { encoding: 'utf8', env, timeout: CONFIG_TIMEOUT_MS },
        (error, stdout) => resolve(error ? undefined : readNpmConfigList(stdout)),
      ),
    );
    asked.set(env, config);
  }
  return config;
}
