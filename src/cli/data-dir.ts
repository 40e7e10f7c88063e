import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where Electron's app.getPath('userData') puts Quayside's folder, for commands run outside Electron. */
export function defaultDataDir(platform: NodeJS.Platform = process.platform, env = process.env): string {
  const home = homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Quayside');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Quayside');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Quayside');
}
