// Ink edits (applied with the others by scripts/ink-cache-bounds.mjs, as Ink enters the bundle):
// a frame walks only the boxes that changed.
//
// Every frame Ink walks its whole tree (render-node-to-output.js): for each node Yoga's getters,
// each text squashed, measured, wrapped and styled again, and written into the frame's Output.
// A frame of the dashboard changes a pane's tail or a clock; the list's rows, the other panes and
// the footer are what they were. So a box remembers the operations its subtree wrote (writes and
// clips, at the places they were written) and, when nothing in that subtree changed since and the
// box has the same size, under the same transformers, writes them again shifted to where the box
// is now, without walking it. "Changed" is marked by every mutation Ink's DOM gets (dom.js: a
// child added, moved or removed, a text's value; reconciler.js: a style's values, any other prop
// commitUpdate applies, a node hidden or shown) on the node and every ancestor. A subtree's
// layout inside a box of the same size is Yoga's function of that subtree alone, so it is the
// same too. The frames are the same characters as published Ink's
// (test/scripts/ink-subtree-replay.test.tsx, and every UI test in vitest's edited-ink project).
// Like the Frames edits of ink-cache-bounds.mjs, these are written for Ink 6's files: moving to
// another Ink means writing them again for its files, or measuring that they no longer pay.

/** In every file these edits change: the sign that a file is edited already. */
export const replayMarker = '/* hermes-delegate: subtree replay */';

/** Marks a node and its ancestors as changed since their last frame. */
const markChanged = `${replayMarker} export const markChanged = (node) => {
    for (let current = node; current !== undefined; current = current.parentNode) {
        current.internal_changed = true;
    }
};
`;

export const replayEdits = {
	'dom.js': [
		['export const createNode = (nodeName) => {', `${markChanged}export const createNode = (nodeName) => {`],
		// Added, moved or removed children: the parent's subtree changed.
		['    childNode.parentNode = node;\n    node.childNodes.push(childNode);', '    childNode.parentNode = node;\n    markChanged(node);\n    node.childNodes.push(childNode);'],
		['    newChildNode.parentNode = node;\n    const index = node.childNodes.indexOf(beforeChildNode);', '    newChildNode.parentNode = node;\n    markChanged(node);\n    const index = node.childNodes.indexOf(beforeChildNode);'],
		['    removeNode.parentNode = undefined;\n    const index = node.childNodes.indexOf(removeNode);', '    removeNode.parentNode = undefined;\n    markChanged(node);\n    const index = node.childNodes.indexOf(removeNode);'],
		['    node.nodeValue = text;\n    markNodeAsDirty(node);', '    node.nodeValue = text;\n    markChanged(node);\n    markNodeAsDirty(node);'],
	],
	'reconciler.js': [
		["import { createTextNode, appendChildNode, insertBeforeNode, removeChildNode, setStyle, setTextNodeValue, createNode, setAttribute, } from './dom.js';", `${replayMarker} import { createTextNode, appendChildNode, insertBeforeNode, removeChildNode, setStyle, setTextNodeValue, createNode, setAttribute, markChanged, } from './dom.js';`],
		// A style whose values changed (a re-rendered Box passes a new style object each time, the
		// same values or not) or any other prop commitUpdate applies that a frame is drawn from
		// (internal_transform included: see components/Text.js below).
		['        if (!props && !style) {\n            return;\n        }\n        if (props) {', "        if (!props && !style) {\n            return;\n        }\n        if (style || Object.keys(props ?? {}).some(key => !notDrawn.has(key))) {\n            markChanged(node);\n        }\n        if (props) {"],
		['const cleanupYogaNode = (node) => {', "// Props a frame is not drawn from: children (kept as an attribute), and what only the screen\n// reader's output reads (a re-rendered Box passes a new internal_accessibility object each time).\nconst notDrawn = new Set(['style', 'children', 'internal_accessibility']);\nconst cleanupYogaNode = (node) => {"],
		['    hideInstance(node) {\n', '    hideInstance(node) {\n        markChanged(node);\n'],
		['    unhideInstance(node) {\n', '    unhideInstance(node) {\n        markChanged(node);\n'],
	],
	// Text makes its transform (the colours and styles it applies) a new function each render, a
	// prop change for the node however little changed: kept while what it applies is the same, so
	// a Text drawn again unchanged does not mark its boxes as changed. Made before Text's early
	// return, as hooks must be.
	'components/Text.js': [
		["import React, { useContext } from 'react';", `${replayMarker} import React, { useContext, useMemo } from 'react';`],
		// The transform is memoised where it is made; the early return it followed moves below it.
		['    if (childrenOrAriaLabel === undefined || childrenOrAriaLabel === null) {\n        return null;\n    }\n    const transform = (children) => {', '    const transform = useMemo(() => (children) => {'],
		['        return children;\n    };\n    if (isScreenReaderEnabled && ariaHidden) {', '        return children;\n    }, [dimColor, color, backgroundColor, inheritedBackgroundColor, bold, italic, underline, strikethrough, inverse]);\n    if (childrenOrAriaLabel === undefined || childrenOrAriaLabel === null) {\n        return null;\n    }\n    if (isScreenReaderEnabled && ariaHidden) {'],
	],
	'render-node-to-output.js': [
		["import renderBackground from './render-background.js';", `import renderBackground from './render-background.js';
${replayMarker} const sameTransformers = (a, b) => {
    if (a.length !== b.length) {
        return false;
    }
    for (let i = 0; i < a.length; i++) {
        if (a[i] !== b[i]) {
            return false;
        }
    }
    return true;
};
// The operations a box's subtree wrote in its last frame, written again moved by (dx, dy).
const replay = (output, frame, dx, dy) => {
    for (const operation of frame.operations) {
        if (dx === 0 && dy === 0) {
            output.operations.push(operation);
        }
        else if (operation.type === 'write') {
            output.operations.push({ ...operation, x: operation.x + dx, y: operation.y + dy });
        }
        else if (operation.type === 'clip') {
            const { x1, x2, y1, y2 } = operation.clip;
            output.operations.push({ type: 'clip', clip: { x1: x1 === undefined ? undefined : x1 + dx, x2: x2 === undefined ? undefined : x2 + dx, y1: y1 === undefined ? undefined : y1 + dy, y2: y2 === undefined ? undefined : y2 + dy } });
        }
        else {
            output.operations.push(operation);
        }
    }
};`],
		['        let clipped = false;\n        if (node.nodeName === \'ink-box\') {', `        let boxWidth;
        let boxHeight;
        let firstOperation;
        if (node.nodeName === 'ink-box') {
            boxWidth = yogaNode.getComputedWidth();
            boxHeight = yogaNode.getComputedHeight();
            const frame = node.internal_frame;
            if (node.internal_changed === false && frame !== undefined && frame.width === boxWidth && frame.height === boxHeight && frame.skipStaticElements === skipStaticElements && sameTransformers(frame.transformers, newTransformers)) {
                replay(output, frame, x - frame.x, y - frame.y);
                return;
            }
            firstOperation = output.operations.length;
        }
        let clipped = false;
        if (node.nodeName === 'ink-box') {`],
		['            if (clipped) {\n                output.unclip();\n            }\n        }', `            if (clipped) {
                output.unclip();
            }
        }
        if (firstOperation !== undefined) {
            node.internal_frame = { x, y, width: boxWidth, height: boxHeight, skipStaticElements, transformers: newTransformers, operations: output.operations.slice(firstOperation) };
            node.internal_changed = false;
        }`],
	],
};
