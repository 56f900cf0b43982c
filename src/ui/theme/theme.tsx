// Components ask for semantic tokens (`status.failed`, `border.focused`), never literal colours,
// so a theme file or NO_COLOR changes the whole dashboard in one place.
import {createContext, useContext, type ReactNode} from 'react';
import type {Theme, ThemeColour} from '../../core/theme/themes.js';
import type {TaskStatus} from '../../core/types.js';

const ThemeContext = createContext<Theme | undefined>(undefined);

export function ThemeProvider({theme, children}: {readonly theme: Theme; readonly children: ReactNode}) {
	return <ThemeContext.Provider value={theme}>{children}</ThemeContext.Provider>;
}

export function useTheme(): Theme {
	const theme = useContext(ThemeContext);
	// No silent default: a component rendered without a theme is a wiring bug (the app and the
	// test render helper both provide one), and guessing a palette would hide it.
	if (!theme) {
		throw new Error('useTheme() was called outside <ThemeProvider>; wrap the tree in <ThemeProvider theme={...}>');
	}

	return theme;
}

/** The colour for a task status; undefined under the no-color theme (use the status word, bold/dim). */
export function statusColor(theme: Theme, status: TaskStatus): ThemeColour {
	return theme.colors.status[status];
}
