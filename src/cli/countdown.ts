// A yes/no question with a deadline, on a terminal: the time left is a line under the question, drawn again every
// second while the operator has not answered ("fee guaranteed for 0:42"). At the deadline the question ends
// unanswered ('expired'), and the caller renews what ran out and asks again. Written with @inquirer/core, as
// @inquirer/confirm is (the same keys: y/yes, n/no, Enter for the default No).
import { createPrompt, isEnterKey, makeTheme, useEffect, useKeypress, usePrefix, useState } from '@inquirer/core';

export interface CountdownConfig {
  message: string;
  /** Milliseconds since the epoch by `now`. */
  deadline: number;
  now: () => number;
  /** The line under the question, given the whole seconds left. */
  left: (seconds: number) => string;
  /** What the answer line says when the deadline passed first. */
  expiredText: string;
}

/** Seconds as m:ss ("0:42", "1:00"). */
export function clockText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

const secondsLeft = (c: CountdownConfig) => Math.max(0, Math.ceil((c.deadline - c.now()) / 1000));

export const countdownConfirm = createPrompt<boolean | 'expired', CountdownConfig>((config, done) => {
  const [status, setStatus] = useState<'idle' | 'done'>('idle');
  const [value, setValue] = useState('');
  const [left, setLeft] = useState(secondsLeft(config));
  const theme = makeTheme();
  const prefix = usePrefix({ status, theme });

  useEffect(() => {
    // Checked four times a second, drawn when the whole seconds left change (setLeft draws only on a change).
    const timer = setInterval(() => {
      const s = secondsLeft(config);
      if (s > 0) return setLeft(s);
      clearInterval(timer);
      setValue(config.expiredText);
      setStatus('done');
      done('expired');
    }, 250);
    return () => clearInterval(timer);
  }, []);

  useKeypress((key, rl) => {
    if (status !== 'idle') return;
    if (isEnterKey(key)) {
      const yes = /^(y|yes)/i.test(value.trim());
      setValue(yes ? 'Yes' : 'No');
      setStatus('done');
      done(yes);
    } else setValue(rl.line);
  });

  const message = theme.style.message(config.message, status);
  if (status === 'done') return `${prefix} ${message} ${theme.style.answer(value)}`;
  return [`${prefix} ${message} ${theme.style.defaultAnswer('y/N')} ${value}`, config.left(left)];
});
