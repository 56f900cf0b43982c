// Whether the dashboard turned mouse reporting on (commands/mount-dashboard.tsx; off with --no-mouse or
// delegate.yaml `mouse: false`): the footer and the help say so, and how to select text anyway.
import {createContext, useContext} from 'react';

const MouseOnContext = createContext(false);

export const MouseOnProvider = MouseOnContext.Provider;

export function useMouseOn(): boolean {
	return useContext(MouseOnContext);
}

/** What the help says of the mouse; terminals let a drag with Shift held select text while an app reads the mouse. */
export const mouseHelp = [
	{keys: 'click', description: 'Focus the task under the pointer (grid and list)'},
	{keys: 'double click', description: 'Zoom the task under the pointer'},
	{keys: 'wheel', description: 'Move the focus up or down in the grid and the list (as ↑/↓); scroll the zoomed task, this help or the spend table'},
	{keys: 'shift+drag', description: 'Select text as usual: while the dashboard reads the mouse, most terminals select with Shift held (turn the mouse off with --no-mouse, or `mouse: false` in delegate.yaml)'},
] as const;
