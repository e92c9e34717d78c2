//! A deliberately plain implementation of both games, written for the tests: a grid of cells, loops
//! over directions, no bit tricks and nothing shared with the library. The fast boards must agree
//! with it move by move.

#![allow(dead_code)]

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    Empty,
    Black,
    White,
}

impl Cell {
    fn other(self) -> Cell {
        match self {
            Cell::Black => Cell::White,
            Cell::White => Cell::Black,
            Cell::Empty => Cell::Empty,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RefMove {
    Place(usize, usize),
    Pass,
    Swap,
}

impl RefMove {
    pub fn name(self) -> String {
        match self {
            RefMove::Place(row, col) => format!("{}{}", (b'a' + col as u8) as char, row + 1),
            RefMove::Pass => "pass".into(),
            RefMove::Swap => "swap".into(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct RefBoard {
    pub size: usize,
    pub lehto: bool,
    /// cells[row][col]
    pub cells: Vec<Vec<Cell>>,
    pub to_move: Cell,
    pub swap_allowed: bool,
}

const EIGHT: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];
const FOUR_LINES: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

impl RefBoard {
    pub fn othello(size: usize) -> RefBoard {
        let mut cells = vec![vec![Cell::Empty; size]; size];
        let h = size / 2;
        cells[h - 1][h - 1] = Cell::White;
        cells[h][h] = Cell::White;
        cells[h - 1][h] = Cell::Black;
        cells[h][h - 1] = Cell::Black;
        RefBoard {
            size,
            lehto: false,
            cells,
            to_move: Cell::Black,
            swap_allowed: false,
        }
    }

    pub fn lehto(size: usize) -> RefBoard {
        RefBoard {
            size,
            lehto: true,
            cells: vec![vec![Cell::Empty; size]; size],
            to_move: Cell::Black,
            swap_allowed: false,
        }
    }

    pub fn new(lehto: bool, size: usize) -> RefBoard {
        if lehto {
            RefBoard::lehto(size)
        } else {
            RefBoard::othello(size)
        }
    }

    fn inside(&self, r: i32, c: i32) -> bool {
        r >= 0 && c >= 0 && (r as usize) < self.size && (c as usize) < self.size
    }

    fn at(&self, r: i32, c: i32) -> Cell {
        self.cells[r as usize][c as usize]
    }

    /// Othello: the discs a placement flips.
    fn othello_flips(&self, row: usize, col: usize, me: Cell) -> Vec<(usize, usize)> {
        let mut all = Vec::new();
        if self.cells[row][col] != Cell::Empty {
            return all;
        }
        for (dr, dc) in EIGHT {
            let mut line = Vec::new();
            let (mut r, mut c) = (row as i32 + dr, col as i32 + dc);
            while self.inside(r, c) && self.at(r, c) == me.other() {
                line.push((r as usize, c as usize));
                r += dr;
                c += dc;
            }
            if !line.is_empty() && self.inside(r, c) && self.at(r, c) == me {
                all.extend(line);
            }
        }
        all
    }

    fn placements_for(&self, me: Cell) -> Vec<RefMove> {
        let mut out = Vec::new();
        for row in 0..self.size {
            for col in 0..self.size {
                if self.cells[row][col] != Cell::Empty {
                    continue;
                }
                if self.lehto || !self.othello_flips(row, col, me).is_empty() {
                    out.push(RefMove::Place(row, col));
                }
            }
        }
        out
    }

    /// Legal moves in square order; swap last; [pass] when forced; empty when the game is over.
    pub fn legal_moves(&self) -> Vec<RefMove> {
        let mut moves = self.placements_for(self.to_move);
        if self.lehto {
            if self.swap_allowed {
                moves.push(RefMove::Swap);
            }
            return moves;
        }
        if moves.is_empty() && !self.placements_for(self.to_move.other()).is_empty() {
            moves.push(RefMove::Pass);
        }
        moves
    }

    pub fn is_over(&self) -> bool {
        self.legal_moves().is_empty()
    }

    fn stones(&self) -> usize {
        self.cells
            .iter()
            .flatten()
            .filter(|c| **c != Cell::Empty)
            .count()
    }

    /// Lehto: the opponent stones in palindromic runs through (row, col), on `board`.
    fn palindrome_marks(
        board: &[Vec<Cell>],
        size: usize,
        row: usize,
        col: usize,
        me: Cell,
    ) -> Vec<(usize, usize)> {
        let inside =
            |r: i32, c: i32| r >= 0 && c >= 0 && (r as usize) < size && (c as usize) < size;
        let occupied =
            |r: i32, c: i32| inside(r, c) && board[r as usize][c as usize] != Cell::Empty;
        let mut marks = Vec::new();
        for (dr, dc) in FOUR_LINES {
            let (mut r, mut c) = (row as i32, col as i32);
            while occupied(r - dr, c - dc) {
                r -= dr;
                c -= dc;
            }
            let mut run = Vec::new();
            while occupied(r, c) {
                run.push((r as usize, c as usize));
                r += dr;
                c += dc;
            }
            let colours: Vec<Cell> = run.iter().map(|&(r, c)| board[r][c]).collect();
            let mut reversed = colours.clone();
            reversed.reverse();
            if run.len() >= 2 && colours == reversed {
                for (i, &(r, c)) in run.iter().enumerate() {
                    if colours[i] == me.other() {
                        marks.push((r, c));
                    }
                }
            }
        }
        marks
    }

    pub fn play(&mut self, mv: RefMove) {
        let me = self.to_move;
        match mv {
            RefMove::Pass => {
                self.to_move = me.other();
            }
            RefMove::Swap => {
                // The players trade colours; board and colour to move stay.
                self.swap_allowed = false;
            }
            RefMove::Place(row, col) if !self.lehto => {
                for (r, c) in self.othello_flips(row, col, me) {
                    self.cells[r][c] = me;
                }
                self.cells[row][col] = me;
                self.to_move = me.other();
            }
            RefMove::Place(row, col) => {
                let first_move = self.stones() == 0;
                self.cells[row][col] = me;
                let mut wave = vec![(row, col)];
                while !wave.is_empty() {
                    let snapshot = self.cells.clone();
                    let mut marked: Vec<(usize, usize)> = Vec::new();
                    for &(r, c) in &wave {
                        for m in Self::palindrome_marks(&snapshot, self.size, r, c, me) {
                            if !marked.contains(&m) {
                                marked.push(m);
                            }
                        }
                    }
                    for &(r, c) in &marked {
                        self.cells[r][c] = me;
                    }
                    wave = marked;
                }
                self.swap_allowed = first_move;
                self.to_move = me.other();
            }
        }
    }

    /// The board string: squares row by row with X, O, -, a space, the colour to move.
    pub fn board_string(&self) -> String {
        let squares: String = self
            .cells
            .iter()
            .flatten()
            .map(|c| match c {
                Cell::Black => 'X',
                Cell::White => 'O',
                Cell::Empty => '-',
            })
            .collect();
        let to_move = if self.to_move == Cell::Black {
            'X'
        } else {
            'O'
        };
        format!("{squares} {to_move}")
    }

    /// Perft with the same conventions as the library's: a pass is a ply, a finished game a leaf.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if moves.is_empty() {
            return 1;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut next = self.clone();
                next.play(m);
                next.perft(depth - 1)
            })
            .sum()
    }

    /// The final disc difference for the colour to move, empties to the winner in Othello.
    pub fn final_score(&self) -> i32 {
        let mine = self
            .cells
            .iter()
            .flatten()
            .filter(|c| **c == self.to_move)
            .count() as i32;
        let theirs = self
            .cells
            .iter()
            .flatten()
            .filter(|c| **c == self.to_move.other())
            .count() as i32;
        let empties = (self.size * self.size) as i32 - mine - theirs;
        if self.lehto || mine == theirs {
            mine - theirs
        } else if mine > theirs {
            mine - theirs + empties
        } else {
            mine - theirs - empties
        }
    }
}
