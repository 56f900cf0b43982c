// A scrolled window over lines that do not all fit, for the overlays that need one (the help, the
// spend table). How far it is scrolled is the overlay's own state: it means nothing outside it.
// The keys reach it through the app's one keyboard handler, not a second useInput: while the help
// or the spend table has the keyboard, the handler hands each scroll command to the window on
// screen, which has registered itself in ScrollTargetContext.
import {createContext, useContext, useLayoutEffect, useState} from 'react';
import type {Command} from '../keys/keys.js';

/** What a window shows at an offset: lines [start, end), and how many are hidden above and below. */
export type ScrollWindow = {start: number; end: number; above: number; below: number; maxOffset: number};

/** The lines on screen at `offset`, with a marker line for what is hidden above and below. */
export function scrollWindow(total: number, visible: number, offset: number): ScrollWindow {
	if (total <= visible) {
		return {start: 0, end: total, above: 0, below: 0, maxOffset: 0};
	}

	// Scrolled to the end, the top marker and the last lines fill the view.
	const maxOffset = Math.max(0, total - Math.max(1, visible - 1));
	const start = Math.min(Math.max(0, offset), maxOffset);
	const room = Math.max(1, visible - (start > 0 ? 1 : 0));
	const end = total - start > room ? start + Math.max(1, room - 1) : total;
	return {start, end, above: start, below: total - end, maxOffset};
}

/** The offset after a scroll command, from where the window stands; the same offset for any other command. */
export function scrolledOffset(total: number, visible: number, offset: number, command: Command): number {
	// Which way, and how many lines: a page is the window less a line of context and a marker.
	const steps: Partial<Record<Command, [direction: number, lines: number]>> = {'scroll.up': [-1, 1], 'scroll.down': [1, 1], 'scroll.pageUp': [-1, visible - 2], 'scroll.pageDown': [1, visible - 2]};
	const step = steps[command];
	const from = scrollWindow(total, visible, offset);
	if (step === undefined) {
		return from.start;
	}

	// A page of a window too small for one still moves a line, and the way it was asked.
	const [direction, lines] = step;
	return Math.min(from.maxOffset, Math.max(0, from.start + direction * Math.max(1, lines)));
}

/** Where the keyboard handler finds the scrolled window on screen: set while one is mounted. */
export type ScrollTarget = {current: ((command: Command) => void) | null};

export const ScrollTargetContext = createContext<ScrollTarget>({current: null});

export function useScrollTarget(): ScrollTarget {
	return useContext(ScrollTargetContext);
}

/** The window over `total` lines of which `visible` fit, scrolled by the scroll commands while it is on screen. */
export function useScrollWindow(total: number, visible: number): ScrollWindow {
	const [offset, setOffset] = useState(0);
	const target = useScrollTarget();
	// A layout effect: registered as the overlay is drawn, so a key pressed right after it opens scrolls it.
	useLayoutEffect(() => {
		// From the previous offset, not this render's: keys that arrive together are all handled
		// before the next render, and each must move on from where the one before it left off.
		const scroll = (command: Command) => setOffset(previous => scrolledOffset(total, visible, previous, command));
		target.current = scroll;
		return () => {
			if (target.current === scroll) target.current = null;
		};
	}, [target, total, visible]);
	return scrollWindow(total, visible, offset);
}
