// Bracketed paste as Ink's useInput reports it. With the terminal told ESC[?2004h (commands/
// tui.tsx), a paste arrives between ESC[200~ and ESC[201~. Ink's input parser cuts the read at
// each escape sequence, so the markers come as their own presses ('[200~', '[201~', the ESC
// dropped) and the text between them as one or more presses: a long paste may span several
// reads, and a line break or tab read alone comes as Enter or Tab. The text is gathered until
// the end marker and handed over whole, so that the paste is judged as one piece.
import type {Key} from 'ink';

const start = '[200~';
const end = '[201~';
// A terminal that dropped the end marker (a paste cut off) must not leave every key after it
// taken as text: the paste ends when nothing has come for this long.
const lostEndMs = 1000;

export class PasteReader {
	private text: string | null = null;
	private timer: NodeJS.Timeout | undefined;

	constructor(private readonly onPaste: (text: string) => void) {}

	/** True when the press was part of a paste (a marker or pasted text): it is no key. */
	take(input: string, key: Key): boolean {
		const plain = !key.ctrl && !key.meta;
		if (plain && input === start) {
			this.finish();
			this.text = '';
			this.arm();
			return true;
		}

		if (this.text === null) {
			return false;
		}

		if (plain && input === end) {
			this.finish();
			return true;
		}

		this.text += pastedText(input, key);
		this.arm();
		return true;
	}

	private arm(): void {
		clearTimeout(this.timer);
		this.timer = setTimeout(() => {
			this.finish();
		}, lostEndMs);
		this.timer.unref();
	}

	private finish(): void {
		clearTimeout(this.timer);
		const {text} = this;
		this.text = null;
		if (text !== null && text !== '') {
			this.onPaste(text);
		}
	}
}

/** The characters a press inside a paste stands for: keys that are not text (arrows, Esc, Ctrl) stand for none. */
function pastedText(input: string, key: Key): string {
	if (key.return) {
		return '\r';
	}

	if (key.tab) {
		return '\t';
	}

	const named = key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageUp || key.pageDown || key.home || key.end || key.escape || key.backspace || key.delete;
	return named || key.ctrl || key.meta ? '' : input;
}
