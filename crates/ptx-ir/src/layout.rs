//! Where blocks and instructions sit: doubly linked lists of blocks in
//! function order and of instructions in each block. Moving an instruction
//! never touches its operands.

use crate::entity::SecondaryMap;
use crate::{Block, Inst};

#[derive(Clone, Copy, Debug, Default)]
struct BlockNode {
    prev: Option<Block>,
    next: Option<Block>,
    first: Option<Inst>,
    last: Option<Inst>,
    inserted: bool,
}

#[derive(Clone, Copy, Debug, Default)]
struct InstNode {
    prev: Option<Inst>,
    next: Option<Inst>,
    block: Option<Block>,
}

/// Block order and instruction order.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    blocks: SecondaryMap<Block, BlockNode>,
    insts: SecondaryMap<Inst, InstNode>,
    first_block: Option<Block>,
    last_block: Option<Block>,
}

impl Layout {
    /// Reserves room for about `insts` instructions.
    pub fn reserve(&mut self, insts: usize) {
        self.insts.reserve(insts);
        self.blocks.reserve(insts / 8 + 1);
    }

    /// The entry block.
    pub fn entry_block(&self) -> Option<Block> {
        self.first_block
    }

    /// Whether `b` is in the layout.
    pub fn is_block_inserted(&self, b: Block) -> bool {
        self.blocks[b].inserted
    }

    /// Appends `b` at the end of the function.
    pub fn append_block(&mut self, b: Block) {
        debug_assert!(!self.blocks[b].inserted);
        let prev = self.last_block;
        self.blocks[b] = BlockNode {
            prev,
            next: None,
            first: None,
            last: None,
            inserted: true,
        };
        match prev {
            Some(p) => self.blocks[p].next = Some(b),
            None => self.first_block = Some(b),
        }
        self.last_block = Some(b);
    }

    /// Inserts `b` right after `after`.
    pub fn insert_block_after(&mut self, b: Block, after: Block) {
        let next = self.blocks[after].next;
        self.blocks[b] = BlockNode {
            prev: Some(after),
            next,
            first: None,
            last: None,
            inserted: true,
        };
        self.blocks[after].next = Some(b);
        match next {
            Some(n) => self.blocks[n].prev = Some(b),
            None => self.last_block = Some(b),
        }
    }

    /// Removes an empty-or-not block from the order (its instructions stay
    /// attached to it).
    pub fn remove_block(&mut self, b: Block) {
        let n = self.blocks[b];
        match n.prev {
            Some(p) => self.blocks[p].next = n.next,
            None => self.first_block = n.next,
        }
        match n.next {
            Some(x) => self.blocks[x].prev = n.prev,
            None => self.last_block = n.prev,
        }
        let node = &mut self.blocks[b];
        node.inserted = false;
        node.prev = None;
        node.next = None;
    }

    /// Blocks in order.
    pub fn blocks(&self) -> Blocks<'_> {
        Blocks {
            layout: self,
            next: self.first_block,
        }
    }

    /// The block after `b`.
    pub fn next_block(&self, b: Block) -> Option<Block> {
        self.blocks[b].next
    }

    /// The block before `b`.
    pub fn prev_block(&self, b: Block) -> Option<Block> {
        self.blocks[b].prev
    }

    /// Appends `i` to `b`.
    pub fn append_inst(&mut self, i: Inst, b: Block) {
        let last = self.blocks[b].last;
        self.insts[i] = InstNode {
            prev: last,
            next: None,
            block: Some(b),
        };
        match last {
            Some(l) => self.insts[l].next = Some(i),
            None => self.blocks[b].first = Some(i),
        }
        self.blocks[b].last = Some(i);
    }

    /// Inserts `i` before `before`.
    pub fn insert_inst_before(&mut self, i: Inst, before: Inst) {
        let b = self.insts[before].block.expect("instruction not in layout");
        let prev = self.insts[before].prev;
        self.insts[i] = InstNode {
            prev,
            next: Some(before),
            block: Some(b),
        };
        self.insts[before].prev = Some(i);
        match prev {
            Some(p) => self.insts[p].next = Some(i),
            None => self.blocks[b].first = Some(i),
        }
    }

    /// Removes `i` from its block.
    pub fn remove_inst(&mut self, i: Inst) {
        let n = self.insts[i];
        let Some(b) = n.block else { return };
        match n.prev {
            Some(p) => self.insts[p].next = n.next,
            None => self.blocks[b].first = n.next,
        }
        match n.next {
            Some(x) => self.insts[x].prev = n.prev,
            None => self.blocks[b].last = n.prev,
        }
        self.insts[i] = InstNode::default();
    }

    /// The block holding `i`.
    pub fn inst_block(&self, i: Inst) -> Option<Block> {
        self.insts[i].block
    }

    /// First instruction of `b`.
    pub fn first_inst(&self, b: Block) -> Option<Inst> {
        self.blocks[b].first
    }

    /// Last instruction of `b` (its terminator once the function is valid).
    pub fn last_inst(&self, b: Block) -> Option<Inst> {
        self.blocks[b].last
    }

    /// Instruction after `i`.
    pub fn next_inst(&self, i: Inst) -> Option<Inst> {
        self.insts[i].next
    }

    /// Instruction before `i`.
    pub fn prev_inst(&self, i: Inst) -> Option<Inst> {
        self.insts[i].prev
    }

    /// Instructions of `b` in order.
    pub fn block_insts(&self, b: Block) -> Insts<'_> {
        Insts {
            layout: self,
            next: self.blocks[b].first,
        }
    }
}

/// Iterator over blocks in layout order.
pub struct Blocks<'a> {
    layout: &'a Layout,
    next: Option<Block>,
}

impl Iterator for Blocks<'_> {
    type Item = Block;
    fn next(&mut self) -> Option<Block> {
        let b = self.next?;
        self.next = self.layout.blocks[b].next;
        Some(b)
    }
}

/// Iterator over a block's instructions.
pub struct Insts<'a> {
    layout: &'a Layout,
    next: Option<Inst>,
}

impl Iterator for Insts<'_> {
    type Item = Inst;
    fn next(&mut self) -> Option<Inst> {
        let i = self.next?;
        self.next = self.layout.insts[i].next;
        Some(i)
    }
}
