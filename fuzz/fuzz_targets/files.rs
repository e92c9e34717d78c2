//! Book files (binary and text) and weights files. Invariants: no panic; a book that reads
//! writes back to bytes that read to the same book; weights that read lay over the patterns or
//! say why.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othel::book::Book;
use othel::eval::model::Model;
use othel::eval::weights::Weights;

fuzz_target!(|data: &[u8]| {
    if let Ok(book) = Book::from_bytes(data) {
        let again = Book::from_bytes(&book.to_bytes()).expect("a written book reads");
        assert_eq!(again, book);
        let _ = book.to_text();
    }
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(book) = Book::from_text(text)
    {
        let again = Book::from_text(&book.to_text()).expect("a written text book reads");
        assert_eq!(again, book);
    }
    if let Ok(weights) = Weights::from_bytes(data) {
        let again = Weights::from_bytes(&weights.to_bytes()).expect("written weights read");
        assert_eq!(again, weights);
        let _ = Model::new(weights);
    }
});
