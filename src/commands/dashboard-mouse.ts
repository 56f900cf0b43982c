// Whether the dashboard reads the mouse: --no-mouse turns it off, else delegate.yaml `mouse`, else
// on. A broken delegate.yaml is the batch's business (checked when it started): the mouse is on then.
import {loadSettings, settingsPath} from '../core/config/settings.js';

export function dashboardMouse(flag: boolean | undefined, hermesHome: string): boolean {
	if (flag === false) return false;
	try {
		return loadSettings(settingsPath(hermesHome)).mouse ?? true;
	} catch {
		return true;
	}
}
